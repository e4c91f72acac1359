import { z } from 'zod';

export const GRANT_TYPES = ['api_token', 'refresh_token'] as const;

export const oauthCommand = z
  .object({
    grantType: z.string().min(1),
    token: z.string().min(1),
  })
  .strict()
  .meta({ id: 'CreateAccessTokenInput' });

export type OauthCommand = z.output<typeof oauthCommand>;

export const tokenGrantView = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  clientId: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  createdAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'TokenGrant' });

export type TokenGrant = z.output<typeof tokenGrantView>;
