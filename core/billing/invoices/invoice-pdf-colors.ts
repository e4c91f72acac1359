/** The parts of pdfkit 0.20's colour handling (ColorMixin) used here; invoice-pdf-colors.test.ts guards them. */
interface ColorInternals {
  addContent(data: string): unknown;
  _normalizeColor(color: unknown): number[] | null;
  _setColorCore(color: unknown, stroke: boolean): boolean;
}

/**
 * A component (0–1) with four decimals: an 8-bit component k/255 comes back as k when multiplied by
 * 255 and rounded (the rounding moves it by at most 0.013 of a step).
 */
const component = (value: number) => String(Math.round(value * 10_000) / 10_000);

/**
 * The operator that sets a colour given as hex, by fill or stroke and colour. pdfkit parses the
 * colour at every use, some two hundred times per invoice, and writes two operators for it: the
 * colour space (`/DeviceRGB cs`) and the components with 16 to 17 digits each (`… scn`), 77 bytes,
 * 30 % of a page's content before it is compressed. One `rg` (`RG` to stroke) sets both.
 */
const operators = new Map<string, string>();

/** Makes a document set hex colours (`#1f4e79`) with one operator in the DeviceRGB colour space, made once per colour. */
export function cacheColors(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as ColorInternals;
  const original = internals._setColorCore;
  // The document is `this`, as pdfkit calls it (see collectInto in invoice-pdf-output.ts on why it keeps no document).
  internals._setColorCore = function (this: ColorInternals, color, stroke) {
    if (typeof color !== 'string' || !color.startsWith('#')) return original.call(this, color, stroke);
    const key = `${stroke ? 'stroke' : 'fill'}${color}`;
    let operator = operators.get(key);
    if (operator === undefined) {
      const rgb = this._normalizeColor(color);
      if (rgb?.length !== 3) return original.call(this, color, stroke);
      // Joined, not concatenated: one flat string, which writing it some hundred times needn't walk.
      operators.set(key, (operator = [...rgb.map(component), stroke ? 'RG' : 'rg'].join(' ')));
    }
    this.addContent(operator);
    return true;
  };
}
