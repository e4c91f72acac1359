export interface Address {
  line1: string | null;
  line2: string | null;
  line3: string | null;
  line4: string | null;
  locality: string;
  postCode: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** True for an assigned ISO 3166-1 alpha-2 code (ICU knows the region's name). */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || code === 'ZZ') return false;
  return regionNames.of(code) !== code;
}

/** A fresh copy in the documented key order (jsonb storage does not keep key order). */
export function presentAddress(address: Address): Address {
  const { line1, line2, line3, line4, locality, postCode, country } = address;
  return { line1, line2, line3, line4, locality, postCode, country };
}
