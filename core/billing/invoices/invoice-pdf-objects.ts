/** A PDF object of pdfkit 0.20 (its PDFReference), as far as writing it goes. */
export interface PdfObject {
  id: number;
  offset: number;
}

/** The parts of pdfkit 0.20's document that write objects; invoice-pdf-text.test.ts guards them. */
interface ObjectInternals {
  _offset: number;
  _write(data: string): void;
  _refEnd(object: PdfObject): void;
}

/** pdfkit's number format in objects and page content: rounded to six decimals. */
export const pdfNumber = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Writes an object without a stream, its dictionary given as the text pdfkit would serialise it to
 * (its PDFReference.end()): for objects written per document many times over, where pdfkit's
 * generic serialisation of each value would cost more than the rest of writing them.
 */
export function writeObject(doc: unknown, object: PdfObject, dictionary: string): void {
  const internals = doc as ObjectInternals;
  object.offset = internals._offset;
  internals._write(`${object.id} 0 obj`);
  internals._write(dictionary);
  internals._write('endobj');
  internals._refEnd(object);
}
