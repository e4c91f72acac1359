/**
 * Check digits of the identifiers a seller prints on its invoices. Pure functions: each check
 * answers the normalised identifier (spaces removed, letters upper case) or why it is refused.
 */

export type IdentifierProblem = 'invalid_format' | 'invalid_check_digit';

export type CheckedIdentifier = { ok: true; value: string } | { ok: false; problem: IdentifierProblem };

const refused = (problem: IdentifierProblem): CheckedIdentifier => ({ ok: false, problem });

/** Spaces are how people group identifiers on paper; they are not part of the identifier. */
const compact = (input: string) => input.replace(/\s+/g, '').toUpperCase();

/**
 * ISO 7064 MOD 11,10 (the hybrid system) over a string of decimal digits: the check digit that
 * follows them. Starting with P = 10, for each digit d: S = (P + d) mod 10, with 0 read as 10, and
 * P = (2 · S) mod 11; the check digit is 11 − P, with 10 read as 0.
 */
export function iso7064Mod11_10CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError(`Expected decimal digits, got "${digits}".`);
  let product = 10;
  for (const digit of digits) {
    const sum = (product + Number(digit)) % 10 || 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
}

/** Digits for letters as ISO 13616 and ISO 7064 MOD 97-10 read them: A = 10, B = 11, …, Z = 35. */
function lettersToDigits(alphanumeric: string): string {
  return [...alphanumeric].map((c) => (c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c)).join('');
}

/** ISO 7064 MOD 97-10: the remainder of a (long) decimal number by 97, computed piecewise. */
export function iso7064Mod97(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError(`Expected decimal digits, got "${digits}".`);
  let remainder = 0;
  for (let at = 0; at < digits.length; at += 7) remainder = Number(`${remainder}${digits.slice(at, at + 7)}`) % 97;
  return remainder;
}

const GERMAN_VAT_ID = /^DE(\d{8})(\d)$/;

/**
 * German VAT identification number (Umsatzsteuer-Identifikationsnummer, USt-IdNr.): `DE` followed by
 * nine digits, the last a check digit. Rule: "the German check digit is ISO 7064 MOD 11,10 over the
 * first eight digits". Example: DE136695976.
 */
export function checkGermanVatId(input: string): CheckedIdentifier {
  const value = compact(input);
  const match = GERMAN_VAT_ID.exec(value);
  if (!match) return refused('invalid_format');
  return iso7064Mod11_10CheckDigit(match[1]!) === Number(match[2]) ? { ok: true, value } : refused('invalid_check_digit');
}

/** An EU VAT identification number: a two-letter country prefix and 2 to 12 letters, digits, `+`, `*` or `.`. */
export const VAT_ID_PATTERN = /^[A-Z]{2}[0-9A-Z+*.]{2,12}$/;

/**
 * VAT identification number of any EU member state, as VIES writes them: a country prefix followed by
 * 2 to 12 characters. Only the format is checked, except for German ones (`DE`), whose check digit is
 * checked as in checkGermanVatId. Example: DE136695976, ATU12345678, FR12345678901.
 */
export function checkVatId(input: string): CheckedIdentifier {
  const value = compact(input);
  if (!VAT_ID_PATTERN.test(value)) return refused('invalid_format');
  return value.startsWith('DE') ? checkGermanVatId(value) : { ok: true, value };
}

/** Country code, 2 check digits, 3-character business code, national identifier: at most 35 characters. */
const SEPA_CREDITOR_ID = /^([A-Z]{2})(\d{2})([A-Z0-9]{3})([A-Z0-9]{1,28})$/;

/** National identifiers whose length is fixed by their country: Germany's Bundesbank assigns 11 digits. */
const NATIONAL_CREDITOR_IDS: Record<string, RegExp> = { DE: /^\d{11}$/ };

/**
 * SEPA creditor identifier (Gläubiger-Identifikationsnummer). Rule: "checked with ISO 7064
 * mod 97-10 as SEPA creditor identifiers are: country code, 2 check digits, 3-character business
 * code that is NOT part of the check, national id". The check digits are those that make
 * national id + country code + check digits, letters as digits (A = 10 … Z = 35), ≡ 1 mod 97.
 * Example: DE98ZZZ09999999999.
 */
export function checkSepaCreditorId(input: string): CheckedIdentifier {
  const value = compact(input);
  const match = SEPA_CREDITOR_ID.exec(value);
  if (!match) return refused('invalid_format');
  const [, country, check, , national] = match as unknown as [string, string, string, string, string];
  if (NATIONAL_CREDITOR_IDS[country] && !NATIONAL_CREDITOR_IDS[country].test(national)) return refused('invalid_format');
  return iso7064Mod97(lettersToDigits(`${national}${country}${check}`)) === 1 ? { ok: true, value } : refused('invalid_check_digit');
}

/** The check digits of a SEPA creditor identifier with this country and national identifier. */
export function sepaCreditorCheckDigits(country: string, national: string): string {
  const remainder = iso7064Mod97(lettersToDigits(`${national}${country}00`.toUpperCase()));
  return String(98 - remainder).padStart(2, '0');
}

/**
 * German tax number (Steuernummer) as the tax office wrote it: digits, grouped by spaces or slashes
 * (e.g. `21/815/08150`, `2181508150`, the 13-digit federal form `1121081508150`), 20 characters at
 * most. Its layout differs by federal state, so only the characters and the length are checked.
 */
export function checkTaxNumber(input: string): CheckedIdentifier {
  const value = input.trim().replace(/\s+/g, ' ');
  return /^\d[\d /]*\d$/.test(value) && value.length <= 20 ? { ok: true, value } : refused('invalid_format');
}
