/** A glyph's place in a run (fontkit's GlyphPosition), scaled by pdfkit to 1000 units per em. */
interface Position {
  /** The glyph's own advance (pdfkit adds it), which xAdvance differs from by kerning. */
  advanceWidth: number;
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** A laid-out text as pdfkit 0.20's EmbeddedFont.layoutRun() answers it (a fontkit GlyphRun). */
export interface Run {
  /** The glyphs (fontkit's): their ids, advances in font units and the code points they show. */
  glyphs: Array<{ id: number; advanceWidth: number; codePoints: number[] }>;
  positions: Position[];
  readonly advanceWidth: number;
}

/** A text laid out word by word as pdfkit 0.20's EmbeddedFont.layout() answers it (no glyphs when only the width was asked for). */
export interface TextLayout {
  glyphs: Run['glyphs'] | null;
  positions: Position[] | null;
  advanceWidth: number;
}

/** The parts of pdfkit's EmbeddedFont used here; invoice-pdf-font-layout.test.ts guards them. */
export interface LayoutFont {
  name: string;
  font: { layout(text: string): Run };
  layoutRun(text: string, features?: unknown): Run;
  /** A word's layout from the font's layout cache, laid out and kept there on a miss. */
  layoutCached(text: string): Run;
  /** A text's layout, word by word from the layout cache (features: shaped whole). */
  layout(text: string, features?: unknown, onlyWidth?: boolean): TextLayout;
}

/**
 * Characters of numbers, amounts and dates. Invoices show many of them, each number a word of its
 * own that the shared layout cache has rarely seen, and shaping a word (OpenType substitution and
 * positioning in fontkit) is most of what laying it out costs.
 */
const CANDIDATES = ' \u00a0\u202f0123456789.,:;-–+/%€()';

/** Runs side by side, as one run; its advance summed as fontkit's GlyphRun sums it (the positions' advances in order). */
function concatenate(runs: Run[]): Run {
  const glyphs: Run['glyphs'] = [];
  const positions: Position[] = [];
  let advanceWidth = 0;
  for (const run of runs) {
    for (const glyph of run.glyphs) glyphs.push(glyph);
    for (const position of run.positions) {
      positions.push(position);
      advanceWidth += position.xAdvance;
    }
  }
  return { glyphs, positions, advanceWidth };
}

/**
 * Per font name: how fontkit lays out single UTF-16 code units, and whether a pair of neighbouring
 * code units (the first times 65,536 plus the second) lays out as each alone. Finding the
 * independent characters asks about every ordered pair of candidates twice and needs each
 * candidate's own layout for every pair; kept here, the 25 candidates cost 650 fontkit layouts per
 * font (625 pairs, 25 alone) instead of 3,750 (counted).
 */
const checks = new Map<string, { singles: Map<string, Run>; pairs: Map<number, boolean> }>();

/** Whether fontkit lays out `a + b` as `a` followed by `b`: the same glyphs at the same places. */
function composes(font: LayoutFont, a: string, b: string): boolean {
  let known = checks.get(font.name);
  if (!known) checks.set(font.name, (known = { singles: new Map(), pairs: new Map() }));
  const { singles, pairs } = known;
  const key = a.charCodeAt(0) * 65_536 + b.charCodeAt(0);
  const checked = pairs.get(key);
  if (checked !== undefined) return checked;
  const alone = (char: string) => {
    let run = singles.get(char);
    if (!run) singles.set(char, (run = font.font.layout(char)));
    return run;
  };
  const whole = font.font.layout(a + b);
  const { glyphs, positions } = concatenate([alone(a), alone(b)]);
  const result =
    whole.glyphs.length === glyphs.length &&
    whole.glyphs.every((glyph, i) => glyph.id === glyphs[i]!.id) &&
    whole.positions.every((p, i) => {
      const q = positions[i]!;
      return p.xAdvance === q.xAdvance && p.yAdvance === q.yAdvance && p.xOffset === q.xOffset && p.yOffset === q.yOffset;
    });
  pairs.set(key, result);
  return result;
}

/** Per font name: the candidates whose layout does not depend on a neighbour, each laid out alone by pdfkit. */
const independents = new Map<string, Map<string, Run>>();

function independentCharacters(font: LayoutFont, layoutRun: LayoutFont['layoutRun']): Map<string, Run> {
  let characters = independents.get(font.name);
  if (!characters) {
    const candidates = [...CANDIDATES];
    const kept = candidates.filter((a) => candidates.every((b) => composes(font, a, b) && composes(font, b, a)));
    characters = new Map(kept.map((char) => [char, layoutRun.call(font, char)]));
    independents.set(font.name, characters);
  }
  return characters;
}

/** A digit: words with one are mostly a document's own amounts, quantities, numbers and dates. */
const DIGIT = /[0-9]/;

/**
 * Lays out words with numbers without shaping the numbers: a word is split between two characters
 * where one of them never depends on its neighbours for its shaping (no kerning, ligature or
 * contextual form among such characters, checked pair by pair once per font) and the two lay out as
 * each alone (checked once per pair). Such characters are put side by side from their single
 * layouts, the pieces between them laid out (and kept in the layout cache) as words of their own;
 * that gives the glyphs and positions of the whole word. A pair that does not lay out as each alone
 * (`V-` is kerned) stays together in a piece. A word without a split is shaped whole.
 *
 * A word with a digit that is put together so is kept for the document only, not in the layout
 * cache that all documents share: most such words (an amount with its unit, an invoice or meter
 * number) come in one document and no other, and there they would live on until the cache starts
 * afresh, dozens per document, for the garbage collector to move and mark.
 */
export function composeIndependentCharacters(font: LayoutFont): void {
  const layoutRun = font.layoutRun;
  const layoutCached = font.layoutCached;
  const characters = independentCharacters(font, layoutRun);
  const piece = (self: LayoutFont, text: string, start: number, end: number) => {
    const part = text.slice(start, end);
    return (part.length === 1 && characters.get(part)) || self.layoutCached(part);
  };
  /** The word put together from its pieces, or null where it has no split. */
  const composed = (self: LayoutFont, text: string): Run | null => {
    if (text.length < 2) return null;
    const runs: Run[] = [];
    let pieceStart = 0;
    for (let i = 1; i < text.length; i++) {
      if ((characters.has(text[i - 1]!) || characters.has(text[i]!)) && composes(self, text[i - 1]!, text[i]!)) {
        runs.push(piece(self, text, pieceStart, i));
        pieceStart = i;
      }
    }
    if (pieceStart === 0) return null;
    runs.push(piece(self, text, pieceStart, text.length));
    return concatenate(runs);
  };
  const documentWords = new Map<string, Run>();
  // The font is `this`, as pdfkit calls these (see collectInto in invoice-pdf-output.ts on why they keep no font or document).
  font.layoutRun = function (this: LayoutFont, text, features) {
    return (features === undefined && composed(this, text)) || layoutRun.call(this, text, features);
  };
  font.layoutCached = function (this: LayoutFont, text) {
    if (!DIGIT.test(text)) return layoutCached.call(this, text);
    let run = documentWords.get(text);
    if (run === undefined) {
      const own = composed(this, text);
      if (!own) return layoutCached.call(this, text);
      documentWords.set(text, (run = own));
    }
    return run;
  };
}

const SPACE = 32;
const TAB = 9;

/**
 * pdfkit's EmbeddedFont.layout() without its cost per word: it tests every character against a new
 * array of separators and concatenates the glyphs and positions into new arrays at every word, so a
 * text of n words copies its glyphs n times. This appends them, and gives the same words (each with
 * its trailing space or tab) from the same cache, hence the same layout.
 */
export function appendWords(font: LayoutFont): void {
  const layout = font.layout;
  // The font is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no font or document).
  font.layout = function (this: LayoutFont, text, features, onlyWidth) {
    if (features) return layout.call(this, text, features, onlyWidth);
    const glyphs: Run['glyphs'] | null = onlyWidth ? null : [];
    const positions: Position[] | null = onlyWidth ? null : [];
    let advanceWidth = 0;
    let last = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === SPACE || code === TAB || index === text.length - 1) {
        const run = this.layoutCached(text.slice(last, index + 1));
        if (glyphs && positions) {
          for (const glyph of run.glyphs) glyphs.push(glyph);
          for (const position of run.positions) positions.push(position);
        }
        advanceWidth += run.advanceWidth;
        last = index + 1;
      }
    }
    return { glyphs, positions, advanceWidth };
  };
}
