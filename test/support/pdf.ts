import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts/');

/** The text of each page, whitespace-normalised. */
export async function extractPages(buffer: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : ' ')).join(' ');
    pages.push(text.replace(/\s+/g, ' '));
  }
  await pdf.destroy();
  return pages;
}

/** The text of an invoice's stored PDF as `GET /v1/invoices/{id}/pdf` answers it (200, `application/pdf`), its pages joined. */
export async function invoicePdfText(baseUrl: string, accessToken: string, invoiceId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/invoices/${invoiceId}/pdf`, { headers: { authorization: `Bearer ${accessToken}` } });
  const type = response.headers.get('content-type');
  if (response.status !== 200 || type !== 'application/pdf') throw new Error(`GET /v1/invoices/${invoiceId}/pdf answered ${response.status} ${type}: ${(await response.text()).slice(0, 300)}`);
  return (await extractPages(Buffer.from(await response.arrayBuffer()))).join(' ');
}

/** The PDF's embedded files (its /EmbeddedFiles name tree), by file name with their decoded content. */
export async function attachmentsOf(buffer: Buffer): Promise<Map<string, { content: Buffer; description: string }>> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), standardFontDataUrl }).promise;
  const attachments = ((await pdf.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array; description?: string }>;
  await pdf.destroy();
  return new Map(Object.values(attachments).map((file) => [file.filename, { content: Buffer.from(file.content), description: file.description ?? '' }]));
}

/** The PDF's indirect objects (id to dictionary text, streams left out); pdfkit writes no object streams. */
function objectsOf(buffer: Buffer): Map<number, string> {
  const objects = new Map<number, string>();
  for (const match of buffer.toString('latin1').matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    objects.set(Number(match[1]), match[2]!.split(/\bstream\r?\n/)[0]!);
  }
  return objects;
}

/** Every font of the PDF with whether its program is embedded (a descriptor with /FontFile, /FontFile2 or /FontFile3). */
export function fontsOf(buffer: Buffer): Array<{ baseFont: string; embedded: boolean }> {
  const objects = objectsOf(buffer);
  const ref = (body: string, key: string) => {
    const match = new RegExp(`/${key}\\s*\\[?\\s*(\\d+) 0 R`).exec(body);
    return match ? objects.get(Number(match[1])) : undefined;
  };
  const embedded = (font: string): boolean => {
    const descendant = ref(font, 'DescendantFonts');
    if (descendant) return embedded(descendant);
    const descriptor = ref(font, 'FontDescriptor');
    return !!descriptor && /\/FontFile[23]?\s+\d+ 0 R/.test(descriptor);
  };
  return [...objects.values()]
    .filter((body) => /\/Type\s*\/Font\b/.test(body) && !/\/Subtype\s*\/CIDFontType[02]\b/.test(body))
    .map((font) => ({ baseFont: /\/BaseFont\s*\/([^\s/<>[\]]+)/.exec(font)?.[1] ?? '', embedded: embedded(font) }));
}

/** The XMP metadata packet of the PDF (pdfkit writes it uncompressed), or null. */
export function xmpOf(buffer: Buffer): string | null {
  const text = buffer.toString('utf8');
  const start = text.indexOf('<?xpacket begin');
  const end = text.indexOf('<?xpacket end', start);
  return start < 0 || end < 0 ? null : text.slice(start, text.indexOf('?>', end) + 2);
}

/** A run of text as a viewer places it: its characters, font (as the PDF names it) and text rendering matrix (size and place on the page). */
export interface TextRun {
  str: string;
  fontName: string;
  transform: number[];
}

/** The text runs of each page, in content order. */
export async function textRunsOf(buffer: Buffer): Promise<TextRun[][]> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), standardFontDataUrl }).promise;
  const pages: TextRun[][] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.flatMap((item) => ('str' in item ? [{ str: item.str, fontName: item.fontName.replace(/^g_d\d+_/, ''), transform: item.transform as number[] }] : [])));
  }
  await pdf.destroy();
  return pages;
}

/** Every object of the PDF but the pages' content streams, each as written (dictionary and stream). */
export function objectsBesideContent(buffer: Buffer): Map<number, string> {
  const text = buffer.toString('latin1');
  const contents = new Set([...text.matchAll(/\/Contents (\d+) 0 R/g)].map((match) => Number(match[1])));
  const objects = new Map<number, string>();
  for (const match of text.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) {
    if (!contents.has(Number(match[1]))) objects.set(Number(match[1]), match[2]!);
  }
  return objects;
}
