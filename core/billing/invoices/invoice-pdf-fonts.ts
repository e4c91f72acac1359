import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { cacheEmbedding, type EmbeddedFont } from './invoice-pdf-font-embed.js';
import { appendWords, composeIndependentCharacters, type LayoutFont, type Run } from './invoice-pdf-font-layout.js';

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

/**
 * What a font's subset holds once the common characters are included: its glyphs, each glyph's
 * subset id plus one by glyph id (0 for glyphs not among them), widths and code points.
 */
interface CommonSubset {
  glyphs: number[];
  ids: Uint16Array;
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
  let common = commonSubsets.get(font.name);
  if (common) {
    font.subset.glyphs = [...common.glyphs];
    font.widths = [...common.widths];
    font.unicode = [...common.unicode];
  } else {
    for (const char of characters) font.encode(char);
    const { subset, widths, unicode } = font;
    const ids = new Uint16Array(Math.max(...subset.glyphs) + 1);
    subset.glyphs.forEach((glyph, id) => (ids[glyph] = id + 1));
    common = { glyphs: [...subset.glyphs], ids, widths: [...widths], unicode: [...unicode] };
    commonSubsets.set(font.name, common);
  }
  includeGlyphsAfter(font.subset, common.ids);
}

/**
 * Makes a subset (fontkit's) answer a glyph's subset id, including the glyph if new, from the
 * common glyphs' ids and a map of the glyphs this document added. fontkit keeps all of them in an
 * object keyed by glyph id, which every glyph of every text written is looked up in: a sparse
 * object, slower to read than an array, and to copy per document.
 */
function includeGlyphsAfter(subset: EmbeddedFont['subset'], common: Uint16Array): void {
  const added = new Map<number, number>();
  subset.includeGlyph = (glyph) => {
    const shared = common[glyph];
    if (shared) return shared - 1;
    let id = added.get(glyph);
    if (id === undefined) {
      id = subset.glyphs.push(glyph) - 1;
      added.set(glyph, id);
    }
    return id;
  };
}

/** A subset glyph id as a glyph in page content: four hex digits, by id. */
const glyphHex: string[] = [];

/**
 * pdfkit 0.20's EmbeddedFont.encode() (the glyphs of a text laid out, as subset glyph ids in hex, and
 * their positions), with each id's hex digits printed once per process rather than per glyph.
 */
function encodeGlyphs(font: EmbeddedFont & LayoutFont): void {
  // The font is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no font or document).
  font.encode = function (this: EmbeddedFont & LayoutFont, text, features) {
    // Not asked for the width only, a layout has glyphs and positions.
    const { glyphs, positions } = this.layout(text, features) as { glyphs: Run['glyphs']; positions: Run['positions'] };
    const encoded = new Array<string>(glyphs.length);
    for (let i = 0; i < glyphs.length; i++) {
      const glyph = glyphs[i]!;
      const id = this.subset.includeGlyph(glyph.id);
      encoded[i] = glyphHex[id] ??= `0000${id.toString(16)}`.slice(-4);
      this.widths[id] ??= glyph.advanceWidth * this.scale;
      this.unicode[id] ??= glyph.codePoints;
    }
    return [encoded, positions];
  };
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
    encodeGlyphs(font as EmbeddedFont & LayoutFont);
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
