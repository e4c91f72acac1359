import type { Address } from '../addresses/address.js';

export const SITE_TYPES = ['balanced_accurate', 'balanced_inaccurate', 'unbalanced_accurate', 'unbalanced_inaccurate'] as const;
export type SiteType = (typeof SITE_TYPES)[number];

export const BALANCE_RESOLUTIONS = ['PT15M', 'P1M'] as const;
export type BalanceResolution = (typeof BALANCE_RESOLUTIONS)[number];

/** Accurate sites work per quarter hour, inaccurate ones per calendar month. */
export function resolutionOf(type: SiteType): BalanceResolution {
  return type.endsWith('_inaccurate') ? 'P1M' : 'PT15M';
}

export function isBalanced(type: SiteType): boolean {
  return type.startsWith('balanced_');
}

export class Site {
  id!: string;
  accountId!: string;
  name!: string;
  type!: SiteType;
  balanceResolution!: BalanceResolution;
  address!: Address;
  customAttributes!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}
