import type { Account } from './account.js';

/**
 * What an invoice prints when the account has no dispute resolution text of its own
 * (`disputeResolutionText` null): the German Schlichtungsstelle Energie e.V. (Friedrichstraße 133,
 * 10117 Berlin, www.schlichtungsstelle-energie.de) and the Bundesnetzagentur's Verbraucherservice
 * Energie.
 */
export const DEFAULT_DISPUTE_RESOLUTION_TEXT =
  'Verbraucherbeschwerden nach § 111a EnWG richten Sie bitte zunächst an uns. Wird Ihrer Beschwerde nicht ' +
  'abgeholfen, können Sie ein Schlichtungsverfahren bei der Schlichtungsstelle Energie e.V., ' +
  'Friedrichstraße 133, 10117 Berlin, www.schlichtungsstelle-energie.de, beantragen (§ 111b EnWG). ' +
  'Allgemeine Informationen zu Ihren Rechten als Haushaltskunde erhalten Sie beim Verbraucherservice ' +
  'Energie der Bundesnetzagentur, Postfach 8001, 53105 Bonn, verbraucherservice-energie@bnetza.de.';

/** The default notice for invoices in English (an en-GB template), naming the same bodies. */
export const DEFAULT_DISPUTE_RESOLUTION_TEXT_EN =
  'Please send questions and complaints about this invoice to us first (contact above); we answer consumer complaints within four weeks ' +
  '(§ 111a EnWG). If we do not resolve your complaint, you can refer it to the Schlichtungsstelle Energie e. V., Friedrichstraße 133, ' +
  '10117 Berlin, Germany, phone +49 30 2757240-0, www.schlichtungsstelle-energie.de (§ 111b EnWG); we are obliged to take part in the ' +
  'conciliation procedure. General information on your rights is available from the consumer service of the Bundesnetzagentur for ' +
  'electricity and gas, Postfach 8001, 53105 Bonn, Germany, phone +49 30 22480-500, verbraucherservice-energie@bnetza.de.';

/**
 * The dispute resolution notice an invoice of this account prints: the account's own text in any
 * language, else the default of the invoice's language (German unless `en`).
 */
export function disputeResolutionTextOf(account: Pick<Account, 'disputeResolutionText'>, language: 'de' | 'en' = 'de'): string {
  return account.disputeResolutionText ?? (language === 'en' ? DEFAULT_DISPUTE_RESOLUTION_TEXT_EN : DEFAULT_DISPUTE_RESOLUTION_TEXT);
}

/** The fields the completeness rule reads. */
export type SellerDetails = Pick<Account, 'companyName' | 'address' | 'vatId' | 'taxNumber' | 'contact' | 'bankAccount'>;

/** The tax identifier requirement is met by either field; it is reported as this one entry. */
export const TAX_IDENTIFIER = 'vatId|taxNumber';

const blank = (value: string | null | undefined) => !value?.trim();

/**
 * Rule: the profile is "complete" (required before invoices may be issued) when it has: name,
 * address, `vatId` or `taxNumber`, contact email and phone, bank IBAN.
 *
 * Answers the paths of what is missing, in that order (`companyName`, `address`, `vatId|taxNumber`
 * when neither is set, `contact.email`, `contact.phone`, `bankAccount.iban`); empty when complete.
 */
export function missingSellerDetails(account: SellerDetails): string[] {
  const missing: string[] = [];
  if (blank(account.companyName)) missing.push('companyName');
  if (!account.address) missing.push('address');
  if (blank(account.vatId) && blank(account.taxNumber)) missing.push(TAX_IDENTIFIER);
  if (blank(account.contact.email)) missing.push('contact.email');
  if (blank(account.contact.phone)) missing.push('contact.phone');
  if (blank(account.bankAccount?.iban)) missing.push('bankAccount.iban');
  return missing;
}
