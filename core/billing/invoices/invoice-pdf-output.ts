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
  const internals = doc as unknown as OutputInternals;
  // What pdfkit wrote before (the header, written by the constructor) waits in its stream.
  const written = doc.read() as Buffer | null;
  const parts: Buffer[] = written ? [written] : [];
  const lines: string[] = [];
  const flushLines = () => {
    // pdfkit's lines are binary strings (a byte per character), as latin1 encodes them.
    if (lines.length > 0) parts.push(Buffer.from(lines.join(''), 'latin1'));
    lines.length = 0;
  };
  internals._write = (data) => {
    if (data instanceof Uint8Array) {
      flushLines();
      parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      internals._offset += data.byteLength;
    } else {
      const line = `${String(data)}\n`;
      lines.push(line);
      internals._offset += line.length;
    }
  };
  return new Promise<Buffer>((resolve, reject) => {
    const finalize = internals._finalize.bind(doc);
    internals._finalize = () => {
      finalize();
      flushLines();
      resolve(Buffer.concat(parts));
    };
    doc.on('error', reject);
  });
}
