import { writeObject, type PdfObject } from './invoice-pdf-objects.js';

/** A PDF object of pdfkit 0.20 (its PDFReference). */
interface PdfReference extends PdfObject {
  data: Record<string, unknown>;
}

/** What pdfkit 0.20 keeps of a marked-content sequence still open on a page. */
interface Marking {
  tag: string;
  options?: { mcid: number };
  /** For structure content: what pdfkit continues on a new page (its initPageMarkings). */
  structContent?: { push(continued: unknown): void };
}

/** A structure element as pdfkit's text() hands it over (its PDFStructureElement). */
interface PdfkitElement {
  dictionary: PdfReference;
  setParent(parent: PdfReference): void;
}

/** The parts of pdfkit 0.20's tagged-PDF support (MarkingsMixin) used here; invoice-pdf-text.test.ts guards them. */
interface StructureInternals {
  page: { dictionary: PdfReference; structParentTreeKey: number; markings: Marking[] };
  ref(data?: Record<string, unknown>): PdfReference;
  getStructTreeRoot(): PdfReference;
  getStructParentTree(): { get(key: number): unknown[] };
  addContent(data: string): void;
  endMarkedContent(): void;
}

/**
 * Continues nothing: pdfkit re-opens a marking that is still open when a page starts, and records
 * the continuation with its element, which it has written by then.
 */
const WRITTEN = { push: () => undefined };

/**
 * The document's structure tree, as pdfkit builds it for text drawn with a structure parent: one
 * Document element under the tree's root, and under it one element per paragraph, whose marked
 * content holds the paragraph's text. The same objects and page content, in the same order, but
 * each paragraph's element is written straight away as text: pdfkit builds an object per element
 * and per marking, checks the whole element each time one is added, and serialises each dictionary
 * generically, for some two hundred paragraphs per invoice.
 */
export class StructureTree {
  private readonly internals: StructureInternals;
  private readonly root: PdfReference;
  private readonly element: PdfReference;
  private readonly children: PdfReference[] = [];

  constructor(doc: PDFKit.PDFDocument) {
    const internals = doc as unknown as StructureInternals;
    this.internals = internals;
    this.root = internals.getStructTreeRoot();
    this.element = internals.ref();
    ((this.root.data.K ??= []) as PdfReference[]).push(this.element);
  }

  /** Writes the Document element; no paragraph may follow. */
  end(): void {
    const kids = this.children.map((child) => `${child.id} 0 R`).join(' ');
    writeObject(this.internals, this.element, `<<\n/S /Document\n/P ${this.root.id} 0 R\n/K [${kids}]\n>>`);
  }

  /** Opens the marked content of a new paragraph element of type `tag` on the current page (pdfkit closes it). */
  paragraph(tag: string): void {
    const { internals } = this;
    const page = internals.page;
    const parents = internals.getStructParentTree().get(page.structParentTreeKey);
    const mcid = parents.length;
    // pdfkit closes what is open before a marking with an MCID, except MCID 0 (its markContent()).
    if (mcid) {
      let open = 0;
      for (const marking of page.markings) if (open || marking.structContent || marking.tag === 'Artifact') open++;
      while (open--) internals.endMarkedContent();
    }
    page.markings.push({ tag, options: { mcid }, structContent: WRITTEN });
    internals.addContent(`/${tag} <<\n/MCID ${mcid}\n>> BDC`);
    const element = internals.ref();
    parents.push(element);
    writeObject(internals, element, `<<\n/S /${tag}\n/P ${this.element.id} 0 R\n/K [${mcid}]\n/Pg ${page.dictionary.id} 0 R\n>>`);
    this.children.push(element);
  }

  /** Takes an element pdfkit's own text() made for a paragraph, which it writes on getting its parent. */
  adopt(element: PDFKit.PDFStructureElement): void {
    const adopted = element as unknown as PdfkitElement;
    adopted.setParent(this.element);
    this.children.push(adopted.dictionary);
  }
}
