import { ScopedCache } from '../../caching/scoped-cache.js';
import { captureContent } from './invoice-pdf-content.js';
import type { EmbeddedFont } from './invoice-pdf-font-embed.js';

/** The options of pdfkit 0.20's _fragment() that change what it writes beyond the position. */
interface FragmentOptions {
  width?: number;
  align?: string;
  lineWidth?: number;
  link?: unknown;
  goTo?: unknown;
  destination?: unknown;
  underline?: unknown;
  strike?: unknown;
  oblique?: unknown;
  characterSpacing?: number;
  wordSpacing?: number;
  horizontalScaling?: number;
  fill?: unknown;
  stroke?: unknown;
  baseline?: unknown;
  features?: unknown;
}

/** The parts of pdfkit 0.20's document used here; invoice-pdf-fragments.test.ts guards them. */
interface FragmentInternals {
  _font: EmbeddedFont & { ref(): unknown };
  _fontSize: number;
  page: { height: number; fonts: Record<string, unknown> };
  addContent(data: string): unknown;
  widthOfString(text: string, options: FragmentOptions): number;
  _fragment(text: string, x: number, y: number, options: FragmentOptions): void;
}

/** What pdfkit writes for a line of text, split around the one operator that holds its position. */
interface Fragment {
  /** Up to the text object's start (BT). */
  head: string;
  /** From the font selection (Tf) to the restored graphics state (Q). */
  tail: string;
  /** The width of the text without trailing white space, which right alignment subtracts. */
  trimmedWidth: number;
}

/** pdfkit's number format in page content: rounded to six decimals. */
const number = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Lines as pdfkit wrote them, by font, size and text. pdfkit encodes every line anew: it lays out
 * each word and turns each glyph into its subset's glyph id; for the labels, amounts and fixed texts
 * that recur in every invoice the result is the same every time.
 */
const fragments = new ScopedCache<Fragment | null | typeof SEEN_ONCE>(20_000);

/**
 * Marks a line seen once and written by pdfkit. Many lines occur in one document only (names,
 * numbers, amounts): splitting what pdfkit wrote for them would cost more than it ever saves, so a
 * line is split and kept when it comes a second time.
 */
const SEEN_ONCE = 'seen once';

/** Options under which a line's operators depend on its position only (none of ours use others). */
function positionOnly(options: FragmentOptions): boolean {
  return (
    (options.align === undefined || options.align === 'left' || options.align === 'right') &&
    !options.link && !options.goTo && !options.destination && !options.underline && !options.strike && !options.oblique &&
    !options.characterSpacing && !options.wordSpacing && (options.horizontalScaling ?? 100) === 100 &&
    !options.fill && !options.stroke && options.baseline === undefined && !options.features
  );
}

/**
 * Splits what pdfkit wrote for a line at its position (Tm). A line is kept only when it has one
 * position (no glyph offsets) and every glyph id is below `sharedGlyphs`: glyphs every document's
 * subset holds at the same ids (see addFonts), so the bytes are the same in any document.
 */
function fragmentOf(written: string[], sharedGlyphs: number): Omit<Fragment, 'trimmedWidth'> | null {
  const positions = written.filter((line) => line.endsWith(' Tm'));
  const start = written.indexOf('BT');
  if (positions.length !== 1 || start < 0 || written[start + 1] !== positions[0]) return null;
  for (const [, hex] of written.join('\n').matchAll(/<([0-9a-f]*)>/g)) {
    for (let i = 0; i < hex!.length; i += 4) if (parseInt(hex!.slice(i, i + 4), 16) >= sharedGlyphs) return null;
  }
  return { head: written.slice(0, start + 1).join('\n'), tail: written.slice(start + 2).join('\n') };
}

/**
 * Makes a document write each line of text (pdfkit's _fragment) from the cache where it can: the
 * same operators, with the position computed as pdfkit does. `sharedGlyphs` tells how many of a
 * font's first subset glyphs every document includes in the same order.
 */
export function cacheFragments(doc: PDFKit.PDFDocument, sharedGlyphs: (font: EmbeddedFont) => number): void {
  const internals = doc as unknown as FragmentInternals;
  const original = internals._fragment.bind(doc);
  internals._fragment = (raw, x, y, options) => {
    const text = `${raw}`.replace(/\n/g, '');
    if (text.length === 0 || !positionOnly(options)) return original(raw, x, y, options);
    const font = internals._font;
    const size = internals._fontSize;
    const scope = [font.id, font.name, size];
    let fragment = fragments.get(scope, text);
    if (fragment === undefined) {
      fragments.set(scope, text, SEEN_ONCE);
      return original(raw, x, y, options);
    }
    if (fragment === SEEN_ONCE) {
      const written = captureContent(doc, () => original(raw, x, y, options));
      const split = fragmentOf(written, sharedGlyphs(font));
      fragment = split && { ...split, trimmedWidth: internals.widthOfString(text.replace(/\s+$/, ''), options) };
      fragments.set(scope, text, fragment);
      return;
    }
    if (fragment === null) return original(raw, x, y, options);
    if (options.width && options.align === 'right') x += options.lineWidth! - fragment.trimmedWidth;
    const baseline = internals.page.height - y - (font.ascender / 1000) * size;
    internals.page.fonts[font.id] ??= font.ref();
    internals.addContent(fragment.head);
    internals.addContent(`1 0 0 1 ${number(x)} ${number(baseline)} Tm`);
    internals.addContent(fragment.tail);
  };
}
