/** The part of pdfkit 0.20's document that adds an operator to the current page's content. */
interface ContentInternals {
  addContent(data: string): unknown;
}

/** Runs `draw` on the document and answers the operators it added to the page, in order (they are added as well). */
export function captureContent(doc: PDFKit.PDFDocument, draw: () => void): string[] {
  const internals = doc as unknown as ContentInternals;
  const written: string[] = [];
  const addContent = internals.addContent;
  internals.addContent = (data) => {
    written.push(data);
    return addContent.call(doc, data);
  };
  try {
    draw();
  } finally {
    internals.addContent = addContent;
  }
  return written;
}
