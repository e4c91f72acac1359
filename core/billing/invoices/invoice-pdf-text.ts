import { ScopedCache } from '../../caching/scoped-cache.js';
import type { StructureTree } from './invoice-pdf-structure.js';

/**
 * The entries each of the renderer's text caches (wrappings, heights, fitted sizes, lines) holds
 * before it starts afresh. Besides the labels and fixed texts that recur, every document adds its
 * own names, numbers and amounts, which will not come again: a larger cache keeps more of them
 * alive for the garbage collector to walk. In paired render loops of bill-run invoices, 4,000 cost
 * less CPU per PDF than 20,000 in 21 of 28 rounds.
 */
export const TEXT_CACHE_ENTRIES = 4_000;

/** What pdfkit passes on for each wrapped line: its measured width and word count, and the width of the box. */
interface LineOptions {
  textWidth: number;
  wordCount: number;
  lineWidth: number;
}

/** What pdfkit's line wrapper did for a text, in order: started a tagged paragraph, or wrote a line. */
type WrapEvent = 'paragraph' | ({ line: string } & LineOptions);

/** The parts of pdfkit 0.20's text drawing (TextMixin) used here; invoice-pdf-text.test.ts guards them. */
interface TextInternals {
  x: number;
  y: number;
  page: { maxY(): number };
  currentLineHeight(includeGap: boolean): number;
  widthOfString(text: string, options: object): number;
  _text(text: string, x: number, y: number, options: object, line: (line: string, options: LineOptions, wrapper: unknown) => void): void;
  _line(line: string, options: LineOptions, wrapper: unknown): void;
  _fragment(line: string, x: number, y: number, options: object): void;
}

export interface TextBox {
  x: number;
  y: number;
  width: number;
  align: 'left' | 'right';
  /** The structure tree a tagged text's paragraph elements go into, and their type; none for artifacts. */
  parent?: StructureTree;
  tag?: string;
}

/**
 * How pdfkit wrapped texts, by font, size, width and text, which is all that wrapping depends on
 * (pdfkit 0.20 breaks lines where the text's words, measured in the font, no longer fit the width).
 * Breaking a text into words and measuring each is most of what drawing it costs, and the labels and
 * fixed texts of invoices recur in every document.
 */
const wrappings = new ScopedCache<WrapEvent[]>(TEXT_CACHE_ENTRIES);

/**
 * Where pdfkit's line breaker must break a line other than at a line feed, and the soft hyphen it
 * may turn into a hyphen.
 */
const OTHER_FORCED_BREAK = /[\r\v\f\u0085\u2028\u2029\u00ad]/;

/**
 * Room a line leaves in its box, in points. pdfkit measures the pieces it may break a line
 * between, where a line here is measured whole; the two differ by kerning across a piece's end
 * (after a hyphen), some hundredths of a point.
 */
const SLACK = 1;

/** Each line feed ends a line, and belongs to it (its glyph has a width); the last line may have none. */
const LINES = /[^\n]*\n|[^\n]+$/g;

/** A line as pdfkit's line wrapper passes it on: its text (a line feed that ends it included) and width. */
export interface SetLine {
  text: string;
  width: number;
}

/**
 * The lines pdfkit would set for a text in a box of `width`, in the document's current font and
 * size, when it would break the text at its line feeds only; null when it might break elsewhere.
 * pdfkit starts a paragraph after each line feed (a text that ends with one has no empty last
 * paragraph), and a paragraph that fits the box, its line feed included, is one line. Most texts of
 * an invoice that change from one document to the next are such lines (names, numbers, dates,
 * amounts, an address, a meter and its label), and wrapping them the way pdfkit does (its line
 * breaker, every piece measured) costs more than measuring them.
 */
export function setLines(doc: PDFKit.PDFDocument, text: string, width: number): SetLine[] | null {
  // pdfkit sets no line (and tags no paragraph) for an empty text.
  if (text.length === 0 || OTHER_FORCED_BREAK.test(text)) return null;
  const lines: SetLine[] = [];
  for (const [line] of text.matchAll(LINES)) {
    const measured = (doc as unknown as TextInternals).widthOfString(line, {});
    if (measured > width - SLACK) return null;
    lines.push({ text: line, width: measured });
  }
  return lines;
}

/**
 * What pdfkit's line wrapper does for a text set as `lines`: per line a paragraph (tagged text)
 * and the line. pdfkit's width of the box is the width times its horizontal scaling in percent
 * (100) divided by 100. The measured width and word count matter to pdfkit only for centred and
 * justified text, links and underlines, none of which are drawn here.
 */
function wrapped(lines: readonly SetLine[], box: TextBox): WrapEvent[] {
  const lineWidth = (box.width * 100) / 100;
  return lines.flatMap(({ text, width }): WrapEvent[] => {
    const line: WrapEvent = { line: text, textWidth: width, wordCount: text.trim().split(/\s+/).length, lineWidth };
    return box.parent ? ['paragraph', line] : [line];
  });
}

/**
 * Draws text with the document's current font, size and colour, as pdfkit's text() does with these
 * options, and answers its height. A text wrapped before is drawn line by line as pdfkit wrapped it,
 * unless it might run into the page's bottom margin (where pdfkit would start a new page).
 */
export function drawText(doc: PDFKit.PDFDocument, bold: boolean, size: number, text: string, box: TextBox): number {
  const internals = doc as unknown as TextInternals;
  const scope = [bold, size, box.width, !!box.parent];
  let events = wrappings.get(scope, text);
  const lines = events ? null : setLines(doc, text, box.width);
  if (lines) {
    events = wrapped(lines, box);
    wrappings.set(scope, text, events);
  }
  const lineHeight = internals.currentLineHeight(true);
  if (events && box.y + (events.length + 1) * lineHeight < internals.page.maxY() - 1) {
    internals.x = box.x;
    internals.y = box.y;
    for (const event of events) {
      if (event === 'paragraph') {
        box.parent!.paragraph(box.tag!);
      } else {
        internals._fragment(event.line, internals.x, internals.y, { width: box.width, align: box.align, ...event });
        internals.y += lineHeight;
      }
    }
    return internals.y - box.y;
  }
  // Where pdfkit starts a new page within a text, the lines stay the same: wrapping heeds the width only.
  const recorded: WrapEvent[] = [];
  const parent = box.parent && {
    add(element: PDFKit.PDFStructureElement) {
      recorded.push('paragraph');
      box.parent!.adopt(element);
    },
  };
  internals._text(text, box.x, box.y, { width: box.width, align: box.align, structParent: parent, structType: box.tag }, (line, options, wrapper) => {
    recorded.push({ line, textWidth: options.textWidth, wordCount: options.wordCount, lineWidth: options.lineWidth });
    internals._line(line, options, wrapper);
  });
  wrappings.set(scope, text, recorded);
  // pdfkit leaves its cursor below the text.
  return internals.y - box.y;
}
