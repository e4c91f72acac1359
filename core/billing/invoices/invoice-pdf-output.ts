/** The parts of pdfkit 0.20's document (PDFDocument) used here; invoice-pdf-output.test.ts guards them. */
interface OutputInternals {
  _offset: number;
  _write(data: unknown): void;
  _finalize(): void;
}

/**
 * Collects what pdfkit writes of a document from now on, after what it wrote before, and answers the
 * document's bytes once it is finished. pdfkit writes a PDF as a stream, line by line: each line
 * becomes a buffer of its own (copied character by character) and passes through Node's stream
 * machinery, some thousand times per invoice. Here the lines are kept as text and turned into bytes
 * once, with the same offsets.
 */
export function collectOutput(doc: PDFKit.PDFDocument): Promise<Buffer> {
  // What pdfkit wrote before (the header, written by the constructor) waits in its stream.
  const written = doc.read() as Buffer | null;
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('error', reject);
    collectInto(doc as unknown as OutputInternals, written, resolve);
  });
}

/**
 * Replaces the document's _write and _finalize with functions that reach the document as `this`,
 * as pdfkit calls them, and keep nothing of it once it is finished. (Every replacement of a pdfkit
 * method here does so: a function kept on a document that holds the document in its scope kept
 * each finished document alive through V8's young-generation collections, which then moved it,
 * some hundred kilobytes per invoice, into the old generation.)
 */
function collectInto(internals: OutputInternals, written: Buffer | null, resolve: (pdf: Buffer) => void): void {
  const parts: Buffer[] = written ? [written] : [];
  const lines: string[] = [];
  const flushLines = () => {
    // pdfkit's lines are binary strings (a byte per character), as latin1 encodes them.
    if (lines.length > 0) parts.push(Buffer.from(lines.join(''), 'latin1'));
    lines.length = 0;
  };
  let settle: ((pdf: Buffer) => void) | null = resolve;
  const finalize = internals._finalize;
  internals._write = function (this: OutputInternals, data) {
    if (data instanceof Uint8Array) {
      flushLines();
      parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      this._offset += data.byteLength;
    } else {
      const line = `${String(data)}\n`;
      lines.push(line);
      this._offset += line.length;
    }
  };
  internals._finalize = function (this: OutputInternals) {
    finalize.call(this);
    flushLines();
    const pdf = Buffer.concat(parts);
    parts.length = 0;
    settle?.(pdf);
    settle = null;
  };
}
