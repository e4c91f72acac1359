import { oauthCommand, tokenGrantView } from '../../core/auth/auth.commands.js';
import type { AuthService } from '../../core/auth/auth.service.js';
import type { RouteSpec } from '../route.js';

export function oauthRoutes(auth: AuthService): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/oauth',
      operationId: 'createAccessToken',
      summary: 'Exchange an API token or a refresh token for an access token',
      description:
        'With `grantType` `api_token` or `refresh_token`, answers a JWT access token valid for 60 minutes and a new single-use refresh token. ' +
        'Presenting a used refresh token again revokes its whole family. Limited per IP address; needs no bearer token.',
      tag: 'Authentication',
      public: true,
      body: oauthCommand,
      response: { status: 201, description: 'A new access token and a rotated refresh token', schema: tokenGrantView },
      handle: async ({ body }) => ({ status: 201, body: await auth.exchange(body) }),
    },
  ];
}
