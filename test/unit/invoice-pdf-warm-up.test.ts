import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { specimenInvoice, warmUpRenderer } from '../../core/billing/invoices/invoice-pdf-warm-up.js';
import { extractPages } from '../support/pdf.js';

describe('specimenInvoice', () => {
  it.each([
    { index: 0, kind: 'invoice', locale: 'de-DE', method: 'sepa_direct_debit', due: 'positive', fuelMix: true },
    { index: 1, kind: 'invoice', locale: 'en-GB', method: 'transfer', due: 'negative', fuelMix: true },
    { index: 2, kind: 'credit_note', locale: 'de-DE', method: 'transfer', due: 'negative', fuelMix: true },
    { index: 3, kind: 'invoice', locale: 'de-DE', method: 'transfer', due: 'zero', fuelMix: false },
    { index: 4, kind: 'invoice', locale: 'de-DE', method: 'sepa_direct_debit', due: 'positive', fuelMix: true },
  ])('takes the four kinds in turn: #$index is a $locale $kind by $method with a $due amount due', ({ index, kind, locale, method, due, fuelMix }) => {
    const document = specimenInvoice(index);
    expect(document).toMatchObject({ kind, locale, payment: { method } });
    expect(Math.sign(Number(document.amountDue))).toBe({ positive: 1, negative: -1, zero: 0 }[due]);
    expect(document.fuelMix !== null).toBe(fuelMix);
    expect(document.cancels !== null).toBe(kind === 'credit_note');
  });

  it('is the same for the same index, and numbers its documents apart', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (a, b) => {
        expect(specimenInvoice(a)).toEqual(specimenInvoice(a));
        if (a !== b) expect(specimenInvoice(a).number).not.toBe(specimenInvoice(b).number);
      }),
    );
  });

  it('renders each kind as a PDF showing its number, seller and customer', async () => {
    for (const index of [0, 1, 2, 3]) {
      const document = specimenInvoice(index);
      const text = (await extractPages(await renderInvoicePdf(document))).join(' ');
      for (const shown of [document.number, document.seller.name, document.customer.name]) expect(text, `#${index}`).toContain(shown);
    }
  });
});

describe('warmUpRenderer', () => {
  it('renders the given number of specimens in order, each in a task of its own', async () => {
    const events: string[] = [];
    const render = async (document: InvoiceDocument) => {
      events.push(`render ${document.number}`);
      // A document's stream schedules a tick; it must run before the next document is rendered.
      process.nextTick(() => events.push(`tick ${document.number}`));
      return Buffer.alloc(0);
    };
    await warmUpRenderer(3, render);
    const numbers = [0, 1, 2].map((index) => specimenInvoice(index).number);
    expect(events).toEqual(numbers.flatMap((number) => [`render ${number}`, `tick ${number}`]));
  });

  it('stops before the next specimen once told to', async () => {
    const rendered: string[] = [];
    await warmUpRenderer(10, async (document) => (rendered.push(document.number), Buffer.alloc(0)), () => rendered.length === 3);
    expect(rendered).toEqual([0, 1, 2].map((index) => specimenInvoice(index).number));
  });

  it('renders nothing for none', async () => {
    let rendered = 0;
    await warmUpRenderer(0, async () => (rendered++, Buffer.alloc(0)));
    expect(rendered).toBe(0);
  });
});
