import { deflateSync } from 'node:zlib';
import { BoundedCache } from '../../caching/bounded-cache.js';
import { pdfNumber, writeObject, type PdfObject } from './invoice-pdf-objects.js';

/** A PDF object of pdfkit 0.20 (its PDFReference): a dictionary and, once ended, maybe a stream. */
interface PdfReference extends PdfObject {
  data: Record<string, unknown>;
  end(chunk?: Uint8Array): void;
}

/** Where fontkit places a glyph, in font units. */
export interface GlyphPosition {
  xAdvance: number;
  advanceWidth: number;
  xOffset: number;
  yOffset: number;
}

/**
 * What pdfkit 0.20 keeps of a TrueType font embedded in one document (its EmbeddedFont), as far as
 * the PDF's font objects are made of it; invoice-pdf-fonts.test.ts guards that pdfkit still has it.
 */
export interface EmbeddedFont {
  id: string;
  name: string;
  scale: number;
  ascender: number;
  descender: number;
  font: {
    postscriptName: string;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    italicAngle: number;
    ascent: number;
    capHeight: number;
    xHeight: number;
    'OS/2'?: { sFamilyClass?: number };
    post: { isFixedPitch: boolean };
    head: { macStyle: { italic: boolean } };
  };
  /** The glyph ids of the subset in the order they were included (glyph 0 first); a glyph's index is its id in the PDF. */
  subset: { glyphs: number[]; includeGlyph(glyph: number): number; encode(): Uint8Array };
  /** Per subset glyph: its advance and the code points it was first laid out for. */
  widths: number[];
  unicode: number[][];
  layoutCache?: Record<string, unknown>;
  dictionary: PdfReference;
  document: { ref(data?: Record<string, unknown>): PdfReference };
  /** Lays a text out: its glyphs' ids in the subset (four hex digits each, the glyphs included if new) and positions. */
  encode(text: string, features?: unknown): [string[], GlyphPosition[]];
  embed(): void;
}

/**
 * Encoding a subset (fontkit) and deflating it is most of what embedding a font costs, and documents
 * that use the same glyphs in the same order get the same bytes: they are kept per font and glyph
 * order, and the ToUnicode CMaps per text. Few entries suffice when documents share one glyph order
 * (see includeCommonGlyphs); the bound keeps documents with unusual characters from piling up.
 */
const programs = new BoundedCache<Buffer>(24);
const cmaps = new BoundedCache<Buffer>(24);
/** The glyph widths (the CID font's /W array, as pdfkit writes it) per font and glyph order. */
const widthArrays = new BoundedCache<string>(24);

/**
 * Replaces pdfkit's EmbeddedFont.embed() for one font: writes the same objects, in the same order
 * and with the same bytes, but takes the compressed font program and ToUnicode CMap from the caches.
 * Only for what is embedded here: TrueType fonts in a PDF/A-3 document (which has no CIDSet).
 */
export function cacheEmbedding(font: EmbeddedFont): void {
  font.embed = function embed(this: EmbeddedFont) {
    const { document, scale } = this;
    const glyphOrder = `${this.name}|${this.subset.glyphs.join(',')}`;
    const fontFile = document.ref({ Length: 0, Filter: 'FlateDecode' });
    fontFile.end(programs.getOrSet(glyphOrder, () => deflateSync(this.subset.encode())));
    const tag = [1, 2, 3, 4, 5, 6].map((i) => String.fromCharCode((this.id.charCodeAt(i) || 73) + 17)).join('');
    const name = `${tag}+${this.font.postscriptName.replaceAll(' ', '_')}`;
    const { bbox } = this.font;
    const descriptor = document.ref({
      Type: 'FontDescriptor',
      FontName: name,
      Flags: flags(this.font),
      FontBBox: [bbox.minX * scale, bbox.minY * scale, bbox.maxX * scale, bbox.maxY * scale],
      ItalicAngle: this.font.italicAngle,
      Ascent: this.ascender,
      Descent: this.descender,
      CapHeight: (this.font.capHeight || this.font.ascent) * scale,
      XHeight: (this.font.xHeight || 0) * scale,
      StemV: 0,
      FontFile2: fontFile,
    });
    descriptor.end();
    const descendantFont = document.ref();
    const widths = widthArrays.getOrSet(glyphOrder, () => `[0 [${Array.from(this.widths, (width) => (width === undefined ? 'null' : pdfNumber(width))).join(' ')}]]`);
    writeObject(
      document,
      descendantFont,
      `<<\n/Type /Font\n/Subtype /CIDFontType2\n/BaseFont /${name}\n/CIDSystemInfo <<\n/Registry (Adobe)\n/Ordering (Identity)\n/Supplement 0\n>>\n/FontDescriptor ${descriptor.id} 0 R\n/W ${widths}\n/CIDToGIDMap /Identity\n>>`,
    );
    const toUnicode = document.ref({ Length: 0, Filter: 'FlateDecode' });
    const cmap = toUnicodeCmap(this.unicode);
    toUnicode.end(cmaps.getOrSet(cmap, () => deflateSync(Buffer.from(cmap, 'latin1'))));
    this.dictionary.data = { Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: 'Identity-H', DescendantFonts: [descendantFont], ToUnicode: toUnicode };
    this.dictionary.end();
  };
}

/** The font descriptor's flags as pdfkit sets them. */
function flags(font: EmbeddedFont['font']): number {
  const familyClass = (font['OS/2']?.sFamilyClass || 0) >> 8;
  let value = 1 << 2;
  if (font.post.isFixedPitch) value |= 1 << 0;
  if (1 <= familyClass && familyClass <= 7) value |= 1 << 1;
  if (familyClass === 10) value |= 1 << 3;
  if (font.head.macStyle.italic) value |= 1 << 6;
  return value;
}

const hex = (value: number) => `0000${value.toString(16)}`.slice(-4);

/** pdfkit's ToUnicode CMap text (with the line end its streams add): each subset glyph to its code points, 256 glyphs a range. */
function toUnicodeCmap(unicode: number[][]): string {
  const entries = unicode.map((codePoints) => {
    const encoded: string[] = [];
    for (let value of codePoints) {
      if (value > 0xffff) {
        value -= 0x10000;
        encoded.push(hex(((value >>> 10) & 0x3ff) | 0xd800));
        value = 0xdc00 | (value & 0x3ff);
      }
      encoded.push(hex(value));
    }
    return `<${encoded.join(' ')}>`;
  });
  const ranges: string[] = [];
  for (let start = 0; start < entries.length; start += 256) {
    const end = Math.min(start + 256, entries.length);
    ranges.push(`<${hex(start)}> <${hex(end - 1)}> [${entries.slice(start, end).join(' ')}]`);
  }
  return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo <<
  /Registry (Adobe)
  /Ordering (UCS)
  /Supplement 0
>> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000><ffff>
endcodespacerange
${ranges.length} beginbfrange
${ranges.join('\n')}
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`;
}
