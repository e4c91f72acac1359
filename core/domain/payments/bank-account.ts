import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * An IBAN in its electronic form (no spaces, upper case) when its country format and ISO 13616
 * mod-97 checksum hold; null otherwise.
 */
export function normaliseIban(value: string): string | null {
  const electronic = electronicFormatIBAN(value);
  return electronic && isValidIBAN(electronic) ? electronic : null;
}

/** A BIC (ISO 9362, 8 or 11 characters) in upper case when valid; null otherwise. */
export function normaliseBic(value: string): string | null {
  const upper = value.replace(/\s+/g, '').toUpperCase();
  return isValidBIC(upper) ? upper : null;
}
