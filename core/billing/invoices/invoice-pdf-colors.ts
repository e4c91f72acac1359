import { captureContent } from './invoice-pdf-content.js';

/** The parts of pdfkit 0.20's colour handling (ColorMixin) used here; invoice-pdf-colors.test.ts guards them. */
interface ColorInternals {
  addContent(data: string): unknown;
  _setColorCore(color: unknown, stroke: boolean): boolean;
}

/**
 * The operators pdfkit writes to set a colour given as hex, by fill or stroke and colour. pdfkit
 * parses the colour and prints its three components as decimals every time it is set, some two
 * hundred times per invoice, with the same result. The layout uses a handful of fixed colours.
 */
const operators = new Map<string, string[]>();

/** Makes a document set hex colours (`#1f4e79`) with the operators pdfkit wrote for them before. */
export function cacheColors(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as ColorInternals;
  const original = internals._setColorCore.bind(doc);
  internals._setColorCore = (color, stroke) => {
    if (typeof color !== 'string' || !color.startsWith('#')) return original(color, stroke);
    const key = `${stroke ? 'stroke' : 'fill'}${color}`;
    const written = operators.get(key);
    if (!written) {
      let set = false;
      const captured = captureContent(doc, () => {
        set = original(color, stroke);
      });
      if (set) operators.set(key, captured);
      return set;
    }
    for (const data of written) internals.addContent(data);
    return true;
  };
}
