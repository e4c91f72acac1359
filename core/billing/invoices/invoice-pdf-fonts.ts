import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { cacheEmbedding, type EmbeddedFont } from './invoice-pdf-font-embed.js';
import { appendWords, composeIndependentCharacters, type LayoutFont } from './invoice-pdf-font-layout.js';

const require = createRequire(import.meta.url);

/**
 * A font file parsed once per process. pdfkit takes a parsed (fontkit) font as well as a file and
 * embeds a fresh subset per document either way; parsing anew would cost some 40 ms per document.
 * pdfkit does not expose the parsed font, so it is taken from a probe document, and the file serves
 * should that ever fail.
 */
function parsedFont(name: string): PDFKit.Mixins.PDFFontSource {
  const file = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
  const probe = new PDFDocument({ autoFirstPage: false }).font(file);
  const parsed = (probe as unknown as { _font?: { font?: { layout?: unknown } } })._font?.font;
  probe.end();
  return typeof parsed?.layout === 'function' ? (parsed as unknown as PDFKit.Mixins.PDFFontSource) : file;
}

/** The fonts' names in a document. */
export type FontName = 'regular' | 'bold';

let fonts: Record<FontName, PDFKit.Mixins.PDFFontSource> | undefined;

/** DejaVu Sans Condensed (free licence), regular and bold, embedded as TrueType subsets; parsed on first use. */
function prepareFonts(): Record<FontName, PDFKit.Mixins.PDFFontSource> {
  fonts ??= { regular: parsedFont('DejaVuSansCondensed.ttf'), bold: parsedFont('DejaVuSansCondensed-Bold.ttf') };
  return fonts;
}

/** Documents between two looks at how many words a shared cache holds, and the most it may hold. */
const LAYOUT_CHECK_EVERY = 256;
const LAYOUT_CACHE_WORDS = 20_000;
const layoutCaches = new Map<string, { words: Record<string, unknown>; documents: number }>();

/**
 * OpenType shaping (GSUB/GPOS in fontkit) is most of a document's rendering time and pdfkit keeps
 * what it shaped per document and word only. A laid-out word depends on the font alone (pdfkit
 * scales it by the font's units per em, and copies a position before it changes one for word
 * spacing), so every document's embedded font gets its font's one cache: the labels and most words
 * of an invoice are shaped once per process. It is started afresh when it holds too many words.
 */
function shareLayoutCache(font: EmbeddedFont): void {
  if (!font.layoutCache) return;
  let shared = layoutCaches.get(font.name);
  if (!shared || (++shared.documents % LAYOUT_CHECK_EVERY === 0 && Object.keys(shared.words).length > LAYOUT_CACHE_WORDS)) {
    shared = { words: Object.create(null) as Record<string, unknown>, documents: shared?.documents ?? 0 };
    layoutCaches.set(font.name, shared);
  }
  font.layoutCache = shared.words;
}

const ASCII = String.fromCharCode(...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i));

/**
 * What invoices mostly consist of. Every document's subsets start with these characters' glyphs in
 * this order, so documents that use no others embed identical subsets, which are encoded once (see
 * cacheEmbedding); each glyph adds some 70 bytes to a PDF. Regular text shows customers' names and
 * addresses: printable ASCII, German letters, typographic punctuation, and the no-break spaces that
 * Intl puts into amounts. Bold text shows the seller's labels and headings, which add their glyphs
 * in the same order every time, and numbers and amounts.
 */
export const COMMON_CHARACTERS: Record<FontName, string> = {
  regular: `${ASCII}\u00a0\u202fÄÖÜäöüß€§°²³·–—„“”‚‘’…₂`,
  bold: ' \u00a0\u202f0123456789.,-–€%',
};

/** How many glyphs each document's subset of a font starts with, by font name: the same ones in the same order. */
const sharedGlyphCounts = new Map<string, number>();

/** The number of glyphs every document's subset of the font starts with, in the same order (0 for a font not added here). */
export const sharedGlyphCount = (font: EmbeddedFont): number => sharedGlyphCounts.get(font.name) ?? 0;

/** What a font's subset holds once the common characters are included: its glyphs, their subset ids, widths and code points. */
interface CommonSubset {
  glyphs: number[];
  mapping: Record<number, number>;
  widths: number[];
  unicode: number[][];
}

/** Per font name, the common subset as the first document's font had it. */
const commonSubsets = new Map<string, CommonSubset>();

/**
 * Includes the common characters' glyphs in the font's subset, as if text had used each of them.
 * Laying each out and including its glyphs is the same work for every document: a new document's
 * font starts from a copy of what the first one had.
 */
function includeCommonGlyphs(font: EmbeddedFont, characters: string): void {
  const fresh = font.subset.glyphs.length === 1;
  const common = fresh ? commonSubsets.get(font.name) : undefined;
  if (common) {
    font.subset.glyphs = [...common.glyphs];
    // The subset looks a glyph up in its mapping and adds the glyphs it lacks; the common glyphs are
    // found on the prototype, which is never written. Copying the mapping (glyph ids up to some
    // thousands, so a sparse object) cost some 70 µs per font and document.
    font.subset.mapping = Object.create(common.mapping) as Record<number, number>;
    font.widths = [...common.widths];
    font.unicode = [...common.unicode];
    return;
  }
  for (const char of characters) font.encode(char);
  if (fresh) {
    const { subset, widths, unicode } = font;
    commonSubsets.set(font.name, { glyphs: [...subset.glyphs], mapping: { ...subset.mapping }, widths: [...widths], unicode: [...unicode] });
  }
}

/**
 * Registers the fonts with a new document and prepares each for embedding: shared layouts, common
 * glyphs first, cached subsets.
 */
export function addFonts(doc: PDFKit.PDFDocument): void {
  const sources = prepareFonts();
  for (const name of ['regular', 'bold'] as const) {
    doc.registerFont(name, sources[name]);
    const font = (doc.font(name) as unknown as { _font: EmbeddedFont })._font;
    shareLayoutCache(font);
    composeIndependentCharacters(font as unknown as LayoutFont);
    appendWords(font as unknown as LayoutFont);
    includeCommonGlyphs(font, COMMON_CHARACTERS[name]);
    sharedGlyphCounts.set(font.name, font.subset.glyphs.length);
    cacheEmbedding(font);
  }
}

/**
 * What a thread's first document would otherwise do before its first page: parses the fonts, works
 * out per font which characters lay out independently of their neighbours (1,300 fontkit layouts
 * for the two fonts), and lays out the common characters: some 180 ms of CPU on a fresh thread.
 */
export function prepareRenderer(): void {
  const probe = new PDFDocument({ autoFirstPage: false });
  addFonts(probe);
  probe.end();
}
