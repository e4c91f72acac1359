import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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

describe('keepSpecimens', () => {
  /**
   * A fresh process renders 200 specimens (with the four kinds kept alive first, or not), then 90
   * more in six rounds, each after a full collection; answers what V8 compiled in those rounds, by
   * function name (--trace-opt).
   */
  async function compiledAfterCollections(keep: boolean): Promise<string[]> {
    const warmUp = new URL('../../core/billing/invoices/invoice-pdf-warm-up.ts', import.meta.url).href;
    const script = `
      const { keepSpecimens, renderInOwnTask, specimenInvoice } = await import(${JSON.stringify(warmUp)});
      if (${keep}) await keepSpecimens();
      for (let i = 0; i < 200; i++) await renderInOwnTask(specimenInvoice(1000 + i));
      console.log('-- rounds');
      for (let round = 0; round < 6; round++) {
        gc();
        for (let i = 0; i < 15; i++) await renderInOwnTask(specimenInvoice(5000 + 15 * round + i));
      }`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--trace-opt', '--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    const rounds = stdout.slice(stdout.indexOf('-- rounds'));
    return [...rounds.matchAll(/completed compiling 0x[0-9a-f]+ <JSFunction ([^\s>]*)/g)].map(([, name]) => name!);
  }

  it('keeps the code V8 compiled for documents\' fonts through full collections, which otherwise drop it', async () => {
    const [kept, notKept] = await Promise.all([compiledAfterCollections(true), compiledAfterCollections(false)]);
    const fonts = (names: string[]) => names.filter((name) => name === 'font.encode' || name === 'font.layout');
    // V8 still compiles other code for the first time in these rounds: the trace works.
    expect(kept.length).toBeGreaterThan(0);
    // At most a late first compilation of each (V8 compiles on helper threads, later on a busy machine).
    expect(fonts(kept).length).toBeLessThanOrEqual(2);
    // Without, each full collection drops the maps of a document's fonts and the code compiled for them.
    expect(fonts(notKept).length).toBeGreaterThanOrEqual(6);
  }, 90_000);
});
