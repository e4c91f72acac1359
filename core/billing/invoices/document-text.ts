/**
 * The characters XML 1.0 forbids: the control characters other than tab, line feed and carriage
 * return, and the noncharacters U+FFFE and U+FFFF. The API stores them in names and texts as given
 * (it refuses only what PostgreSQL cannot hold); an invoice's documents leave them out, the
 * e-invoice because XML cannot carry them and the PDF because its fonts have no glyph for them.
 */
export const UNPRINTABLE_CHARACTERS = '\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF';

/**
 * What the PDF leaves out besides: DEL and the C1 controls (U+007F–U+009F), which XML allows but no
 * font draws (pdfkit even breaks the line at U+0085); a tab becomes a space, as it separates words.
 */
const UNPRINTABLE_IN_PDF = `${UNPRINTABLE_CHARACTERS}\t\u007F-\u009F`;

const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_IN_PDF}]`);
const EVERY_UNPRINTABLE = new RegExp(UNPRINTABLE.source, 'g');

/** The text as the PDF prints it: without the characters above, tabs as spaces (most texts have none: no copy then). */
export function printable(text: string): string {
  return UNPRINTABLE.test(text) ? text.replace(EVERY_UNPRINTABLE, (character) => (character === '\t' ? ' ' : '')) : text;
}
