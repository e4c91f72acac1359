/** The parts of pdfkit 0.20's page (PDFPage) used here; invoice-pdf-text.test.ts guards them. */
interface PdfPage {
  content: { write(chunk: string | Uint8Array): void };
  write(chunk: string | Uint8Array): void;
  end(): void;
}

/**
 * pdfkit turns every operator it adds to a page into bytes of its own (a line each), and deflates
 * them all when the page ends. Each page here collects the operators and hands them over as one
 * text when it ends: the same bytes, without thousands of small buffers per page.
 */
export function collectPageContent(doc: PDFKit.PDFDocument): void {
  doc.on('pageAdded', () => {
    const page = (doc as unknown as { page: PdfPage }).page;
    const pending: string[] = [];
    const flush = () => {
      if (pending.length > 0) page.content.write(pending.join('\n'));
      pending.length = 0;
    };
    const end = page.end.bind(page);
    page.write = (chunk) => {
      if (typeof chunk === 'string') {
        pending.push(chunk);
      } else {
        flush();
        page.content.write(chunk);
      }
    };
    page.end = () => {
      flush();
      end();
    };
  });
}
