import { z } from 'zod';
import { BALANCE_RESOLUTIONS, resolutionOf, SITE_TYPES } from '../domain/sites/site.js';
import { addressInput, addressView } from '../addresses.commands.js';
import { customAttributesInput } from '../custom-attributes/custom-attributes.commands.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const siteFields = {
  name: z.string().trim().min(1).max(200),
  type: z.enum(SITE_TYPES),
  balanceResolution: z.enum(BALANCE_RESOLUTIONS),
  address: addressInput,
  customAttributes: customAttributesInput,
};

function resolutionFitsType(site: { type: (typeof SITE_TYPES)[number]; balanceResolution?: string | null }, ctx: z.RefinementCtx): void {
  if (site.balanceResolution && site.balanceResolution !== resolutionOf(site.type)) {
    ctx.addIssue({
      code: 'custom',
      path: ['balanceResolution'],
      message: `A ${site.type} site has balanceResolution ${resolutionOf(site.type)}.`,
      params: { code: 'resolution_mismatch' },
    });
  }
}

/** POST /v1/sites, createSite. `balanceResolution` is derived from `type` when omitted. */
export const createSiteCommand = z
  .object({
    ...siteFields,
    balanceResolution: siteFields.balanceResolution.nullish(),
    customAttributes: siteFields.customAttributes.default({}),
  })
  .strict()
  .superRefine(resolutionFitsType)
  .transform((site) => ({ ...site, balanceResolution: site.balanceResolution ?? resolutionOf(site.type) }));

export type CreateSiteCommand = z.output<typeof createSiteCommand>;

/** PATCH: a merge patch whose merged result must again be a valid site. */
export const updateSiteCommand = z
  .object({
    id: z.string().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    ...siteFields,
    address: addressInput.partial(),
  })
  .partial()
  .strict();

export const listSitesQuery = pageQuery;

export const removedSiteFields: RemovedField[] = [
  { path: ['timezone'], replacement: 'the account timezone (GET /v1/accounts/{id})' },
  ...[1, 2, 3, 4].flatMap((n) => [
    { path: [`address${n}`], replacement: `address.line${n}` },
    { path: ['address', `address${n}`], replacement: `address.line${n}` },
  ]),
];

export const siteView = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.enum(SITE_TYPES),
  balanceResolution: z.enum(BALANCE_RESOLUTIONS),
  address: addressView,
  customAttributes: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
