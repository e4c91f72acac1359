/**
 * The characters XML 1.0 forbids: the control characters other than tab, line feed and carriage
 * return, and the noncharacters U+FFFE and U+FFFF. The API stores them in names and texts as given
 * (it refuses only what PostgreSQL cannot hold); an invoice's documents leave them out, the
 * e-invoice because XML cannot carry them and the PDF because its fonts have no glyph for them.
 */
export const UNPRINTABLE_CHARACTERS = '\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF';

const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CHARACTERS}]`);
const EVERY_UNPRINTABLE = new RegExp(UNPRINTABLE.source, 'g');

/** The text without the characters an invoice document leaves out (most texts have none: no copy then). */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(EVERY_UNPRINTABLE, '') : text;
}
