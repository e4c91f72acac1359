import { z } from 'zod';
import { ALLOCATION_KEYS } from '../domain/balancing/allocation.js';
import { BALANCE_RESOLUTIONS, DEFAULT_ALLOCATION_KEY, isBalanced, resolutionOf, SITE_TYPES } from '../domain/sites/site.js';
import { addressInput, addressView } from '../addresses.commands.js';
import { calendarDate } from '../field-formats.js';
import { customAttributesInput } from '../custom-attributes/custom-attributes.commands.js';
import { pageQuery } from '../pagination.js';
import type { RemovedField } from '../validation.js';

const siteFields = {
  name: z.string().trim().min(1).max(200),
  type: z.enum(SITE_TYPES),
  balanceResolution: z.enum(BALANCE_RESOLUTIONS),
  allocationKey: z.enum(ALLOCATION_KEYS).describe('How local supply is shared among consumers: priority (tiers), static (shares of the balancing settings) or dynamic (by demand)'),
  allocationKeyValidFrom: calendarDate.describe('First day (account timezone) the key applies; default the first day of the current month'),
  address: addressInput,
  customAttributes: customAttributesInput,
};

function fitsType(site: { type: (typeof SITE_TYPES)[number]; balanceResolution?: string | null; allocationKey?: string | null }, ctx: z.RefinementCtx): void {
  if (site.balanceResolution && site.balanceResolution !== resolutionOf(site.type)) {
    ctx.addIssue({
      code: 'custom',
      path: ['balanceResolution'],
      message: `A ${site.type} site has balanceResolution ${resolutionOf(site.type)}.`,
      params: { code: 'resolution_mismatch' },
    });
  }
  if (site.allocationKey && site.allocationKey !== DEFAULT_ALLOCATION_KEY && !isBalanced(site.type)) {
    ctx.addIssue({ code: 'custom', path: ['allocationKey'], message: `A ${site.type} site is not balanced, so it shares nothing.`, params: { code: 'site_not_balanced' } });
  }
}

/**
 * POST /v1/sites, createSite. `balanceResolution` is derived from `type` when omitted; the
 * allocation key is `priority` unless given, its validFrom defaulted by the use case.
 */
export const createSiteCommand = z
  .object({
    ...siteFields,
    balanceResolution: siteFields.balanceResolution.nullish(),
    allocationKey: siteFields.allocationKey.nullish(),
    allocationKeyValidFrom: siteFields.allocationKeyValidFrom.nullish(),
    customAttributes: siteFields.customAttributes.default({}),
  })
  .strict()
  .superRefine(fitsType)
  .transform((site) => ({ ...site, balanceResolution: site.balanceResolution ?? resolutionOf(site.type) }))
  .meta({ id: 'CreateSiteInput' });

export type CreateSiteCommand = z.output<typeof createSiteCommand>;

/** PATCH: a merge patch whose merged result must again be a valid site. */
export const updateSiteCommand = z
  .object({
    id: z.string().optional().meta({ readOnly: true }),
    createdAt: z.string().optional().meta({ readOnly: true }),
    updatedAt: z.string().optional().meta({ readOnly: true }),
    ...siteFields,
    address: addressInput.partial(),
  })
  .partial()
  .strict()
  .meta({ id: 'UpdateSiteInput' });

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
  allocationKey: z.enum(ALLOCATION_KEYS),
  allocationKeyValidFrom: z.string().nullable().meta({ format: 'date' }).describe('null while the key was never changed from priority'),
  address: addressView,
  customAttributes: z.record(z.string(), z.unknown()),
  createdAt: z.string().meta({ format: 'date-time' }),
  updatedAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'Site' });
