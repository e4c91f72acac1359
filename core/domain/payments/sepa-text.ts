/*
 * Text rules of SEPA files that the ISO 20022 schemas do not hold. The EPC rulebooks allow only the
 * "SEPA Latin" character set in names, addresses and remittance information:
 *   a-z A-Z 0-9 / - ? : ( ) . , ' + and space
 * and German banks (DK data formats) transliterate umlauts and ß rather than dropping them.
 */

/** EPC length limits: names 70 characters, unstructured remittance 140, identifiers 35. */
export const NAME_MAX = 70;
export const REMITTANCE_MAX = 140;
export const ID_MAX = 35;

/** What the EPC implementation guidelines put in a mandatory text field that has no content. */
export const NOT_PROVIDED = 'NOTPROVIDED';

const GERMAN: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss', ẞ: 'SS' };
const GERMAN_CHARACTERS = /[äöüÄÖÜßẞ]/g;

/** Latin letters that Unicode does not decompose into a base letter and marks. */
const UNDECOMPOSABLE: Record<string, string> = {
  Ł: 'L', ł: 'l', Ø: 'O', ø: 'o', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Æ: 'AE', æ: 'ae', Œ: 'OE', œ: 'oe', Þ: 'Th', þ: 'th', ð: 'd',
};
const UNDECOMPOSABLE_CHARACTERS = /[ŁłØøĐđĦħıÆæŒœÞþð]/g;

const MARKS = /\p{M}/gu;
const OUTSIDE_SET = /[^A-Za-z0-9/\-?:().,'+ ]+/gu;
const SPACES = / {2,}/g;
const IDENTIFIER = /^[A-Za-z0-9/\-?:().,'+ ]+$/;

/**
 * `value` in the SEPA character set, at most `maxLength` characters, without leading or trailing
 * space, or null when nothing of it is left. German umlauts and ß are transliterated (ä → ae),
 * other accented letters lose their marks (é → e; compatibility decomposition also turns ligatures
 * and full-width forms into plain letters), `&` becomes `+`, and every other character a space.
 */
export function sepaTextOrNull(value: string, maxLength: number): string | null {
  const text = value
    .normalize('NFC')
    .replace(GERMAN_CHARACTERS, (c) => GERMAN[c]!)
    .replace(UNDECOMPOSABLE_CHARACTERS, (c) => UNDECOMPOSABLE[c]!)
    .normalize('NFKD')
    .replace(MARKS, '')
    .replaceAll('&', '+')
    .replace(OUTSIDE_SET, ' ')
    .replace(SPACES, ' ')
    .trim()
    .slice(0, maxLength)
    .trimEnd();
  return text === '' ? null : text;
}

/**
 * `value` as a mandatory SEPA text field (see sepaTextOrNull); a value with nothing left answers
 * `NOTPROVIDED`, the EPC convention for a mandatory field without content (cut to `maxLength`).
 */
export function sepaText(value: string, maxLength: number): string {
  return sepaTextOrNull(value, maxLength) ?? NOT_PROVIDED.slice(0, maxLength);
}

/**
 * A valid SEPA identifier (MsgId, PmtInfId, EndToEndId, mandate reference): 1 to 35 characters of
 * the SEPA character set. Rule (EPC implementation guidelines, restricted identifiers): it must
 * not start or end with `/` and must not contain `//`.
 */
export function isSepaIdentifier(value: string): boolean {
  return value.length <= ID_MAX && IDENTIFIER.test(value) && !value.startsWith('/') && !value.endsWith('/') && !value.includes('//');
}

/** `value` unchanged when `isSepaIdentifier`; ebbs builds identifiers, so an invalid one is a programming error and throws. */
export function sepaIdentifier(value: string): string {
  if (!isSepaIdentifier(value)) {
    throw new Error(`invalid SEPA identifier ${JSON.stringify(value)}: 1 to ${ID_MAX} characters of a-z A-Z 0-9 / - ? : ( ) . , ' + and space, not starting or ending with "/", without "//"`);
  }
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as 32 lower-case hex digits: fits the 35 characters of an EndToEndId or MsgId. */
export function compactId(uuid: string): string {
  if (!UUID.test(uuid)) throw new Error(`not a UUID: ${uuid}`);
  return uuid.replaceAll('-', '').toLowerCase();
}
