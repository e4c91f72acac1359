import PDFDocument from 'pdfkit';
import { ScopedCache } from '../../caching/scoped-cache.js';
import { printable } from './document-text.js';
import { escapeXml } from './e-invoice/cii.js';
import { cacheColors } from './invoice-pdf-colors.js';
import { addFonts, sharedGlyphCount } from './invoice-pdf-fonts.js';
import { writeLines } from './invoice-pdf-fragments.js';
import { collectOutput } from './invoice-pdf-output.js';
import { cacheOutputIntent } from './invoice-pdf-output-intent.js';
import { collectPageContent } from './invoice-pdf-pages.js';
import { StructureTree } from './invoice-pdf-structure.js';
import { drawText, setLines, TEXT_CACHE_ENTRIES } from './invoice-pdf-text.js';
import type { FuelSource } from './invoice-pdf-model.js';

/** Millimetres in points. */
export const mm = (value: number) => (value * 72) / 25.4;

/** A4 with DIN 5008 margins: 25 mm left, 20 mm right. */
export const page = { width: 595.28, height: 841.89, left: mm(25), right: 595.28 - mm(20), top: mm(15) } as const;
export const contentWidth = page.right - page.left;

/** The fuel mix bar's colour per energy source. */
export const fuelColors: Record<FuelSource, string> = {
  nuclear: '#8e6c9e',
  coal: '#4a4a4a',
  lignite: '#7a5a3a',
  natural_gas: '#d08c2a',
  other_fossil: '#a65d3a',
  renewable_eeg: '#8fc15b',
  renewable_other: '#2e7d32',
};

export const colors = { text: '#1a1a1a', muted: '#5f6770', accent: '#1f4e79', rule: '#aab4bf', shade: '#edf2f7' } as const;

/** The height a heading takes in the flow. */
export const headingHeight = 13 + mm(1.5);

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right';
  /** The structure type the text is tagged with, or 'Artifact' for running headers and footers. */
  tag?: 'P' | 'H1' | 'H2' | 'Artifact';
}

export interface Column {
  width: number;
  align?: 'left' | 'right';
}

export interface Row {
  cells: string[];
  bold?: boolean;
  color?: string;
  /** A colour square before the first cell (a chart legend). */
  marker?: string;
  /** How many columns the first cell spans (1 unless given). */
  span?: number;
}

/** A table whose rows are measured (PdfLayout.measureTable), ready to draw. */
export interface MeasuredTable {
  columns: readonly Column[];
  rows: readonly Row[];
  size: number;
  gap: number;
  /** The header row, bold, or none. */
  headerRow: Row | null;
  headerHeight: number;
  rowHeights: number[];
  /** The height the table takes on one page. */
  height: number;
}

export interface TableStyle {
  size?: number;
  /** The header row, repeated on every page the table continues on; none when null. */
  header: string[] | null;
  /** Space between rows. */
  gap?: number;
}

export interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  /** Fixes the creation date, so the same document always yields the same bytes. */
  createdAt: Date;
  lang: string;
}

/** How a file is embedded: its MIME type, relation to the document and the date it is stamped with. */
export interface AttachedFile {
  type: string;
  relationship: 'Source' | 'Data' | 'Alternative' | 'Supplement' | 'EncryptedPayload' | 'FormData' | 'Schema' | 'Unspecified';
  description: string;
  /** Creation and modification date, fixed so the same document always yields the same bytes. */
  date: Date;
}

/**
 * Where each cell's text goes: its offset from the table's left edge and width. A 4 pt gutter sits
 * right of left-aligned and left of right-aligned text, 8 pt more before left-aligned text that
 * follows right-aligned numbers; the first cell of a row may span several columns.
 */
function cellBoxes(columns: readonly Column[], row: Row): Array<{ x: number; width: number; align: 'left' | 'right' }> {
  const span = row.span ?? 1;
  let x = 0;
  return row.cells.map((_, i) => {
    const first = i === 0 ? 0 : span - 1 + i;
    const last = i === 0 ? span - 1 : first;
    const left = x;
    const width = columns.slice(first, last + 1).reduce((sum, column) => sum + column.width, 0);
    x += width;
    const align = columns[first]!.align ?? 'left';
    if (align === 'right') return { x: left + 4, width: width - 4, align };
    const indent = first > 0 && columns[first - 1]!.align === 'right' ? 8 : 0;
    return { x: left + indent, width: width - 4 - indent, align };
  });
}

/**
 * Heights of wrapped text by style, width and text. They depend on nothing else, so all documents
 * share them: tables measure each row before they draw it, and labels and fixed texts recur in every
 * document.
 */
const heights = new ScopedCache<number>(TEXT_CACHE_ENTRIES);

/** The size right-aligned text is set in (`fitted`), by style, width and text, shared like `heights`. */
const fittingSizes = new ScopedCache<number>(TEXT_CACHE_ENTRIES);

/** Room, in points, that text set smaller to fit its box leaves (the line breaker itself keeps one). */
const FIT_SLACK = 2;

/** The current font's ascender per point of size (pdfkit 0.20's font gives it in thousandths). */
const ascenderOf = (doc: PDFKit.PDFDocument): number => (doc as unknown as { _font: { ascender: number } })._font.ascender / 1000;

/**
 * A tagged PDF/A-3b page flow on pdfkit: text is tagged as paragraphs or headings, rules, boxes and
 * bars are artifacts; `y` is the cursor of the flow, and content that does not fit starts a new page.
 */
export class PdfLayout {
  readonly doc: PDFKit.PDFDocument;
  /** The cursor of the flow. */
  y = page.top;
  /** Where the footer starts: the flow stays 6 mm above it. */
  bottom = page.height - mm(22);
  private readonly structure: StructureTree;
  private readonly rendered: Promise<Buffer>;

  constructor(
    info: DocumentInfo,
    /** Draws what heads each further page and answers where its flow starts. */
    private readonly continuationHeader: (layout: PdfLayout) => number,
  ) {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: page.top, left: page.left, right: page.width - page.right, bottom: 0 },
      bufferPages: true,
      autoFirstPage: false,
      // No default font: pdfkit would parse Helvetica's metrics for every document, and a PDF/A
      // document may use embedded fonts only; every text here sets one of the two below.
      font: '',
      subset: 'PDF/A-3b',
      pdfVersion: '1.7',
      tagged: true,
      lang: info.lang,
      displayTitle: true,
      info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: 'ebbs', CreationDate: info.createdAt },
    });
    this.doc = doc;
    // pdfkit copies the info into the XMP metadata unescaped; "Müller & Söhne" would break the XML,
    // as would a control character in a name.
    const internals = doc as unknown as { _addInfo?: () => void; info: Record<string, unknown> };
    const addInfo = internals._addInfo;
    if (addInfo) {
      // The document is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no document).
      internals._addInfo = function (this: typeof internals) {
        const { info: raw } = this;
        this.info = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, typeof value === 'string' ? escapeXml(value) : value]));
        try {
          addInfo.call(this);
        } finally {
          this.info = raw;
        }
      };
    }
    addFonts(doc);
    cacheOutputIntent(doc);
    cacheColors(doc);
    writeLines(doc, sharedGlyphCount);
    collectPageContent(doc);
    this.rendered = collectOutput(doc);
    this.structure = new StructureTree(doc);
    doc.addPage();
  }

  /**
   * Embeds a file as an associated file of the document (PDF/A-3 structure): listed in the catalog's
   * /AF array and the /EmbeddedFiles name tree, with the given /AFRelationship and fixed dates.
   */
  attachFile(name: string, data: Buffer, { type, relationship, description, date }: AttachedFile): void {
    // pdfkit 0.20 reads `relationship` (its /AFRelationship, 'Unspecified' otherwise); @types/pdfkit does not know it yet.
    const options: PDFKit.Mixins.PDFAttachmentOptions & { relationship: AttachedFile['relationship'] } = { name, type, relationship, description, creationDate: date, modifiedDate: date };
    this.doc.file(data, options);
  }

  /** Adds rdf:Description elements to the XMP metadata packet (pdfkit's public appendXML hook; it closes the packet on end). */
  appendMetadata(xml: string): void {
    this.doc.appendXML(xml);
  }

  /** Selects the style's font and size, which only text drawn later writes into the page. */
  private measuring({ size = 8.5, bold = false }: TextStyle): PDFKit.PDFDocument {
    return this.doc.font(bold ? 'bold' : 'regular').fontSize(size);
  }

  /** Also sets the colour, which pdfkit writes into the page at once. */
  private style(style: TextStyle): PDFKit.PDFDocument {
    return this.measuring(style).fillColor(style.color ?? colors.text);
  }

  /** The height of wrapped text (see `heights`) as `textAt` writes it. */
  heightOf(text: string, width: number, given: TextStyle = {}): number {
    const shown = printable(text);
    const { style, shift } = this.fitted(shown, width, given);
    return shift + this.wrappedHeight(shown, width, style);
  }

  private wrappedHeight(text: string, width: number, style: TextStyle): number {
    if (!text) return 0;
    const { size = 8.5, bold = false } = style;
    return heights.getOrSet([bold, size, width], text, () => {
      const doc = this.measuring(style);
      const lines = setLines(doc, text, width);
      if (!lines) return doc.heightOfString(text, { width });
      // As pdfkit measures it: its cursor moved by a line per line, minus where it was.
      let y = doc.y;
      for (let line = 0; line < lines.length; line++) y += doc.currentLineHeight(true);
      return y - doc.y;
    });
  }

  /**
   * The style right-aligned text without spaces (an amount, a quantity, a price, a date) is set in,
   * and how far down it starts: where one of its lines is wider than its box, a smaller size that
   * fits, on the baseline of the size given. pdfkit would break such a line between two characters,
   * which splits a number or its unit ("12.345,67890" above "1 €").
   */
  private fitted(text: string, width: number, given: TextStyle): { style: TextStyle; shift: number } {
    if (given.align !== 'right' || !text || text.includes(' ') || width <= FIT_SLACK) return { style: given, shift: 0 };
    const { size = 8.5, bold = false } = given;
    const fitting = fittingSizes.getOrSet([bold, size, width], text, () => {
      const doc = this.measuring(given);
      const lines = text.split('\n');
      if (this.wrappedHeight(text, width, given) <= lines.length * doc.currentLineHeight(true) + 0.001) return size;
      const widest = Math.max(...lines.map((line) => doc.widthOfString(line)));
      return Math.floor(((size * (width - FIT_SLACK)) / widest) * 100) / 100;
    });
    if (fitting === size) return { style: given, shift: 0 };
    const style = { ...given, size: fitting };
    return { style, shift: (size - fitting) * ascenderOf(this.measuring(style)) };
  }

  /** Writes text (its printable characters) at a position without moving the cursor; answers its height. */
  textAt(text: string, x: number, y: number, width: number, given: TextStyle = {}): number {
    const shown = printable(text);
    if (!shown) return 0;
    const { style, shift } = this.fitted(shown, width, given);
    const { tag = 'P', align = 'left', size = 8.5, bold = false } = style;
    if (tag !== 'Artifact') return shift + drawText(this.style(style), bold, size, shown, { x, y: y + shift, width, align, parent: this.structure, tag });
    this.doc.markContent('Artifact', { type: 'Pagination' });
    const height = drawText(this.style(style), bold, size, shown, { x, y: y + shift, width, align });
    this.doc.endMarkedContent();
    return shift + height;
  }

  /** Starts a new page unless `height` more points fit above the footer; answers whether it did. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom - mm(6)) return false;
    this.doc.addPage();
    this.y = this.continuationHeader(this);
    return true;
  }

  /** A text block across the content width (or from `x` over `width`) at the cursor, kept on one page. */
  paragraph(text: string | null, style: TextStyle = {}, gapAfter = 6, x = page.left, width = page.right - x): void {
    if (!text) return;
    this.ensure(this.heightOf(text, width, style));
    this.y += this.textAt(text, x, this.y, width, style) + gapAfter;
  }

  /** A section heading at the cursor, kept on the page with the `following` points after it. */
  heading(text: string, following = 30, x = page.left, width = page.right - x): void {
    this.ensure(headingHeight + following);
    this.y += mm(1.5);
    this.textAt(text, x, this.y, width, { size: 9.5, bold: true, color: colors.accent, tag: 'H2' });
    this.y += headingHeight - mm(1.5);
  }

  /** Draws decorations outside the tagged content (PDF/UA artifacts). */
  artifact(draw: (doc: PDFKit.PDFDocument) => void): void {
    this.doc.markContent('Artifact');
    this.doc.save();
    draw(this.doc);
    this.doc.restore();
    this.doc.endMarkedContent();
  }

  rule(x1: number, x2: number, y: number, color: string = colors.rule, width = 0.5): void {
    this.artifact((doc) => doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke());
  }

  box(x: number, y: number, width: number, height: number, fill: string): void {
    if (width > 0) this.artifact((doc) => doc.rect(x, y, width, height).fillColor(fill).fill());
  }

  private rowHeight(columns: readonly Column[], row: Row, size: number): number {
    const boxes = cellBoxes(columns, row);
    return Math.max(...row.cells.map((cell, i) => this.heightOf(cell, boxes[i]!.width, { size, bold: row.bold, align: boxes[i]!.align })));
  }

  /**
   * Measures a table's rows once: what `table` draws, and the height the table takes on one page
   * (which a heading or side-by-side blocks ask for before it is drawn).
   */
  measureTable(columns: readonly Column[], rows: readonly Row[], { size = 8, header, gap = 3 }: TableStyle): MeasuredTable {
    const headerRow: Row | null = header && { cells: header, bold: true };
    const headerHeight = headerRow ? this.rowHeight(columns, headerRow, size) : 0;
    const rowHeights = rows.map((row) => this.rowHeight(columns, row, size));
    let height = headerRow ? 2 + headerHeight + gap : 0;
    for (const rowHeight of rowHeights) height = height + rowHeight + gap;
    return { columns, rows, size, gap, headerRow, headerHeight, rowHeights, height };
  }

  /**
   * A measured table at the cursor from `x`; each row is kept whole and the table continues on
   * further pages with its header repeated.
   */
  table({ columns, rows, size, gap, headerRow, headerHeight, rowHeights }: MeasuredTable, x = page.left): void {
    const width = columns.reduce((sum, column) => sum + column.width, 0);
    const draw = (row: Row, height: number, color?: string) => {
      if (row.marker) this.box(x, this.y + size * 0.2, size * 0.8, size * 0.8, row.marker);
      const boxes = cellBoxes(columns, row);
      row.cells.forEach((cell, i) => {
        const box = boxes[i]!;
        this.textAt(cell, x + box.x, this.y, box.width, { size, bold: row.bold, color: row.color ?? color, align: box.align });
      });
      this.y += height + gap;
    };
    const drawHeader = () => {
      if (!headerRow) return;
      draw(headerRow, headerHeight, colors.muted);
      this.rule(x, x + width, this.y - gap / 2);
      this.y += 2;
    };
    this.ensure((headerRow ? headerHeight + gap + 2 : 0) + (rowHeights[0] ?? 0));
    drawHeader();
    rows.forEach((row, i) => {
      if (this.ensure(rowHeights[i]! + gap)) drawHeader();
      draw(row, rowHeights[i]!);
    });
  }

  /** Blocks side by side from the cursor, kept on one page; each draws from (x, y) and answers its height. */
  sideBySide(blocks: Array<{ height: number; draw: (y: number) => number }>): void {
    this.ensure(Math.max(...blocks.map((block) => block.height)));
    const top = this.y;
    const bottom = Math.max(...blocks.map((block) => block.draw(top)));
    this.y = Math.max(top, bottom);
  }

  /** Draws `footer` on every page (it may write below the bottom margin) and answers the PDF's bytes. */
  finish(footer: (layout: PdfLayout, pageNumber: number, pageCount: number) => void): Promise<Buffer> {
    const { start, count } = this.doc.bufferedPageRange();
    for (let index = start; index < start + count; index++) {
      this.doc.switchToPage(index);
      footer(this, index - start + 1, count);
    }
    this.structure.end();
    this.doc.end();
    return this.rendered;
  }
}
