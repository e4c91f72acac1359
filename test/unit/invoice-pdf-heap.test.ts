import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { prepareRenderer } from '../../core/billing/invoices/invoice-pdf-fonts.js';
import { colors, PdfLayout } from '../../core/billing/invoices/invoice-pdf-layout.js';

v8.setFlagsFromString('--expose-gc');
// V8 allocates straight into the old generation from a site whose objects it saw survive young
// collections (on a busy machine a collection often comes while a marked document is still being
// written): the markers would then land there whether kept or not.
v8.setFlagsFromString('--no-allocation-site-pretenuring');
const gc = runInNewContext('gc') as (options?: { type: 'major' | 'minor' }) => void;
const oldSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

/** Objects hung on each document, some 0.6 MB: what stays of a document shows. */
const MARKER_OBJECTS = 20_000;

/** A document through every replacement of pdfkit's methods: fonts, lines, colours, a rule, pages, metadata, output. */
async function documentWithMarker(index: number): Promise<void> {
  const layout = new PdfLayout({ title: `Rechnung ${index}`, author: 'Müller & Söhne', subject: 'Januar', createdAt: new Date('2026-02-04T00:00:00Z'), lang: 'de-DE' }, () => 60);
  (layout.doc as unknown as { marker: unknown }).marker = Array.from({ length: MARKER_OBJECTS }, (_, i) => ({ i }));
  layout.paragraph(`Rechnung RE-2026-${index}`, { size: 14, bold: true, color: colors.accent });
  layout.table(layout.measureTable([{ width: 200 }, { width: 80, align: 'right' }], [{ cells: ['Arbeitspreis', `${index},50\u00a0€`] }, { cells: ['Grundpreis', '8,50\u00a0€'] }], { header: ['Position', 'Betrag'] }), 70);
  layout.ensure(10_000);
  layout.paragraph('Seite zwei');
  await layout.finish((l, number, count) => void l.textAt(`Seite ${number} von ${count}`, 70, 800, 200, { size: 7, tag: 'Artifact' }));
  await new Promise((resolve) => setImmediate(resolve));
}

describe('invoice PDF heap', () => {
  it('leaves nothing of a finished document for young-generation collections to keep', async () => {
    prepareRenderer();
    for (let i = 0; i < 30; i++) await documentWithMarker(i);
    gc();
    const before = oldSpace();
    for (let i = 0; i < 20; i++) await documentWithMarker(100 + i);
    for (let i = 0; i < 3; i++) gc({ type: 'minor' });
    // Kept, 20 documents would move their markers (some 12 MB) into the old generation.
    expect(oldSpace() - before).toBeLessThan(5_000_000);
  });
});
