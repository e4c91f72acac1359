import { ScopedCache } from '../../caching/scoped-cache.js';
import type { EmbeddedFont, GlyphPosition } from './invoice-pdf-font-embed.js';
import { pdfNumber } from './invoice-pdf-objects.js';
import { TEXT_CACHE_ENTRIES } from './invoice-pdf-text.js';

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
  page: { fonts: Record<string, unknown> };
  addContent(data: string): unknown;
  widthOfString(text: string, options: FragmentOptions): number;
  _fragment(text: string, x: number, y: number, options: FragmentOptions): void;
}

/** A line of text laid out in a font and size, to be written at any position. */
interface Line {
  /** The font selection (Tf) and the glyphs with their kerning (TJ). */
  operators: string;
  /** The width of the text without trailing white space, which right alignment subtracts (once it has). */
  trimmedWidth?: number;
}

/**
 * Lines by font, size and text whose glyphs every document's subset holds at the same ids (see
 * addFonts), so that their operators are the same in any document. Laying a line out in a font
 * (each word, each glyph turned into its subset's id) is most of what writing it costs, and the
 * labels, amounts and fixed texts of invoices recur in every document.
 */
const lines = new ScopedCache<Line | typeof SEEN_ONCE>(TEXT_CACHE_ENTRIES);

/**
 * Marks a line seen once. Many lines occur in one document only (names, numbers, amounts): keeping
 * them would push the recurring ones out, so a line is kept when it comes a second time.
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
 * The glyphs of a line with their kerning, as pdfkit 0.20 writes them: runs of glyph ids, each
 * followed by the adjustment after its last glyph. Null when a glyph is moved off its place (mark
 * positioning), which pdfkit writes with extra positions.
 */
function glyphRuns(encoded: readonly string[], positions: readonly GlyphPosition[]): string | null {
  let runs = '';
  let first = 0;
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (position.xOffset || position.yOffset) return null;
    const kerning = position.xAdvance - position.advanceWidth;
    if (kerning !== 0 || i === positions.length - 1) {
      runs += `${first > 0 ? ' ' : ''}<${encoded.slice(first, i + 1).join('')}> ${pdfNumber(-kerning)}`;
      first = i + 1;
    }
  }
  return `[${runs}] TJ`;
}

/**
 * Makes a document write each plain line of text (pdfkit's _fragment) itself: the font selection
 * and glyphs pdfkit would write, at the same place, in fewer operators, and from the cache where
 * the glyphs allow. pdfkit saves the graphics state for each line, turns the page's flipped
 * coordinates back and sets the line at its position from the bottom; here the text matrix itself
 * flips the line at its position from the top, which puts every glyph where pdfkit does under any
 * transformation. `sharedGlyphs` tells how many of a font's first subset glyphs every document
 * includes in the same order.
 */
export function writeLines(doc: PDFKit.PDFDocument, sharedGlyphs: (font: EmbeddedFont) => number): void {
  const internals = doc as unknown as FragmentInternals;
  const original = internals._fragment;
  // The document is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no document).
  internals._fragment = function (this: FragmentInternals, raw, x, y, options) {
    const text = `${raw}`.replace(/\n/g, '');
    if (text.length === 0 || !positionOnly(options)) return original.call(this, raw, x, y, options);
    const font = this._font;
    const size = this._fontSize;
    const scope = [font.id, font.name, size];
    let line = lines.get(scope, text);
    if (line === undefined || line === SEEN_ONCE) {
      const [encoded, positions] = font.encode(text);
      const glyphs = positions.length > 0 ? glyphRuns(encoded, positions) : null;
      if (glyphs === null) return original.call(this, raw, x, y, options);
      const keep = line === SEEN_ONCE && encoded.every((id) => parseInt(id, 16) < sharedGlyphs(font));
      // Joined, the operators are one flat string. Concatenated, they would be a tree of their parts
      // (the glyph runs too), which V8 walks again wherever the line is written into a page.
      line = { operators: [`/${font.id} ${pdfNumber(size)} Tf`, glyphs].join('\n') };
      lines.set(scope, text, keep ? line : SEEN_ONCE);
    }
    if (options.width && options.align === 'right') x += options.lineWidth! - (line.trimmedWidth ??= this.widthOfString(text.replace(/\s+$/, ''), options));
    const baseline = y + (font.ascender / 1000) * size;
    this.page.fonts[font.id] ??= font.ref();
    this.addContent(`BT\n1 0 0 -1 ${pdfNumber(x)} ${pdfNumber(baseline)} Tm\n${line.operators}\nET`);
  };
}
