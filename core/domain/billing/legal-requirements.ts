import type { Address } from '../addresses/address.js';

/** Why an invoice may not be issued to a contract: it would not be a valid invoice. */
export interface IssuingBlocker {
  code: 'seller_profile_incomplete' | 'customer_address_missing';
  message: string;
}

/**
 * §14 (4) UStG: an invoice states the full name and address of the supplier and of the recipient,
 * and the supplier's tax number or VAT id; ebbs also requires the contact and bank account every
 * electricity invoice prints (§40 EnWG). `sellerMissing` is what the account's legal profile lacks
 * (`missingSellerDetails`). No half-legal invoice is drafted: the contract gets this error instead.
 */
export function issuingBlocker(sellerMissing: readonly string[], customer: { id: string; address: Address | null }): IssuingBlocker | null {
  if (sellerMissing.length > 0) {
    return { code: 'seller_profile_incomplete', message: `The account's legal profile lacks ${sellerMissing.join(', ')}; set it with PATCH /v1/accounts/{id}.` };
  }
  if (!customer.address) return { code: 'customer_address_missing', message: `Customer ${customer.id} has no address; an invoice must name the recipient's address.` };
  return null;
}
