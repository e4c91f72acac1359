/** A glyph's place in a run (fontkit's GlyphPosition), scaled by pdfkit to 1000 units per em. */
interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** A laid-out text as pdfkit 0.20's EmbeddedFont.layoutRun() answers it (a fontkit GlyphRun). */
export interface Run {
  glyphs: Array<{ id: number }>;
  positions: Position[];
  readonly advanceWidth: number;
}

/** The parts of pdfkit's EmbeddedFont used here; invoice-pdf-font-layout.test.ts guards them. */
export interface LayoutFont {
  name: string;
  font: { layout(text: string): Run };
  layoutRun(text: string, features?: unknown): Run;
  /** A word's layout from the font's layout cache, laid out and kept there on a miss. */
  layoutCached(text: string): Run;
}

/**
 * Characters of numbers, amounts and dates. Invoices show many of them, each number a word of its
 * own that the shared layout cache has rarely seen, and shaping a word (OpenType substitution and
 * positioning in fontkit) is most of what laying it out costs.
 */
const CANDIDATES = ' \u00a0\u202f0123456789.,:;-–+/%€()';

/** Runs side by side, as one run; its advance summed as fontkit's GlyphRun sums it (the positions' advances in order). */
function concatenate(runs: Run[]): Run {
  const glyphs = runs.flatMap((run) => run.glyphs);
  const positions = runs.flatMap((run) => run.positions);
  let advanceWidth = 0;
  for (const position of positions) advanceWidth += position.xAdvance;
  return { glyphs, positions, advanceWidth };
}

/** Whether fontkit lays out `a + b` as `a` followed by `b`: the same glyphs at the same places. */
function composes(font: LayoutFont['font'], a: string, b: string): boolean {
  const whole = font.layout(a + b);
  const { glyphs, positions } = concatenate([font.layout(a), font.layout(b)]);
  return (
    whole.glyphs.length === glyphs.length &&
    whole.glyphs.every((glyph, i) => glyph.id === glyphs[i]!.id) &&
    whole.positions.every((p, i) => {
      const q = positions[i]!;
      return p.xAdvance === q.xAdvance && p.yAdvance === q.yAdvance && p.xOffset === q.xOffset && p.yOffset === q.yOffset;
    })
  );
}

/** Per font name: the candidates whose layout does not depend on a neighbour, each laid out alone by pdfkit. */
const independents = new Map<string, Map<string, Run>>();

function independentCharacters(font: LayoutFont, layoutRun: LayoutFont['layoutRun']): Map<string, Run> {
  let characters = independents.get(font.name);
  if (!characters) {
    const candidates = [...CANDIDATES];
    const kept = candidates.filter((a) => candidates.every((b) => composes(font.font, a, b) && composes(font.font, b, a)));
    characters = new Map(kept.map((char) => [char, layoutRun(char)]));
    independents.set(font.name, characters);
  }
  return characters;
}

/** Per font name and pair of neighbouring characters: whether they lay out as each alone. */
const neighbours = new Map<string, boolean>();

/**
 * Lays out words with numbers without shaping the numbers: a word is split where its characters
 * change between ones whose shaping never depends on their neighbours (no kerning, ligature or
 * contextual form among them, checked pair by pair once per font) and others. The former are put
 * side by side from their single layouts, the latter laid out (and kept in the layout cache) as
 * pieces of their own, which gives the glyphs and positions of the whole word where each pair of
 * characters at a split lays out as each alone (checked once per pair). Other words are shaped whole.
 */
export function composeIndependentCharacters(font: LayoutFont): void {
  const layoutRun = font.layoutRun.bind(font);
  const characters = independentCharacters(font, layoutRun);
  const separable = (a: string, b: string) => {
    const key = `${font.name}|${a}|${b}`;
    let value = neighbours.get(key);
    if (value === undefined) neighbours.set(key, (value = composes(font.font, a, b)));
    return value;
  };
  font.layoutRun = (text, features) => {
    if (features !== undefined || text.length < 2) return layoutRun(text, features);
    const runs: Run[] = [];
    let pieceStart = 0;
    let previous: string | undefined;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      const single = characters.get(char);
      const split = previous !== undefined && (single !== undefined || characters.has(previous));
      if (split) {
        if (!separable(previous!, char)) return layoutRun(text, features);
        if (pieceStart < i) runs.push(font.layoutCached(text.slice(pieceStart, i)));
        pieceStart = i;
      }
      if (single) {
        runs.push(single);
        pieceStart = i + 1;
      }
      previous = char;
    }
    if (pieceStart === 0) return layoutRun(text, features);
    if (pieceStart < text.length) runs.push(font.layoutCached(text.slice(pieceStart)));
    return concatenate(runs);
  };
}
