import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCents, formatDecimal, taxOf } from '../../core/domain/billing/money.js';
import { writeCii } from '../../core/billing/invoices/e-invoice/cii.js';
import { eInvoiceViolations } from '../../core/billing/invoices/e-invoice/e-invoice-rules.js';
import type { InvoiceDocument, InvoiceLine } from '../../core/billing/invoices/invoice-pdf-model.js';
import { settlementOf } from '../../core/billing/invoices/invoice-pdf-payment.js';

/*
 * EN 16931 conformance of the CII writer, decided by CEN's own artefacts in the validators folder
 * shipped beside the repository (../shared/validators): the CII D16B XSD (xmllint) and CEN's
 * schematron compiled to XSLT, run in-process with SaxonJS.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const validators = resolve(root, '../shared/validators');
const haveValidators = existsSync(validators);
const XSD = join(validators, 'en16931/cii-schema/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd');
const XSLT = join(validators, 'en16931/EN16931-CII-validation.xslt');

const require = createRequire(import.meta.url);
const SaxonJS = require('saxon-js') as { transform(options: Record<string, unknown>): { principalResult: string } };

if (!haveValidators) console.warn(`cii-conformance: skipped, ${validators} does not exist (the validators folder shipped beside the repository)`);

/** CEN's XSLT compiled for SaxonJS once, cached by its checksum like validate-cii.sh does. */
function compiledRules(): string {
  const sha = createHash('sha256').update(readFileSync(XSLT)).digest('hex').slice(0, 16);
  const cache = join(root, 'node_modules/.cache/ebbs-validators');
  const sef = join(cache, `cen-cii-${sha}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(cache, { recursive: true });
    execFileSync(join(root, 'node_modules/.bin/xslt3'), [`-xsl:${XSLT}`, `-export:${sef}.tmp`, '-nogo', '-relocate:on'], { stdio: 'ignore' });
    renameSync(`${sef}.tmp`, sef);
  }
  return sef;
}

/** The ids of the fatal rules CEN's schematron reports for `xml`. */
function fatalRules(sef: string, xml: string): string[] {
  const svrl = SaxonJS.transform({ stylesheetFileName: sef, sourceText: xml, destination: 'serialized' }).principalResult;
  return [...svrl.matchAll(/<svrl:failed-assert\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /flag="fatal"/.test(tag)).map((tag) => /id="([^"]+)"/.exec(tag)?.[1] ?? '?');
}

/** xmllint's verdict on the files: null when all are valid, else its report. */
function xsdErrors(files: string[]): string | null {
  const result = spawnSync('xmllint', ['--noout', '--schema', XSD, ...files], { encoding: 'utf8' });
  return result.status === 0 ? null : result.stderr;
}

const address = (line1: string, locality: string, postCode: string) => ({ line1, line2: null, line3: null, line4: null, locality, postCode, country: 'DE' });

const nameArb = fc.constantFrom('Erika Mustermann', 'Müller & Söhne <GmbH>', 'Jürgen Groß-Überlänge "Ä" Ölmühlenbetriebsgesellschaft mbH & Co. KG Abteilung Energiebeschaffung und Liegenschaften', "O'Brien Äpfel");
const rateArb = fc.constantFrom('19.00', '7.00');
const energyLineArb = (rate: fc.Arbitrary<string>) =>
  fc.record({ wh: fc.integer({ min: 0, max: 20_000_000 }), price: fc.integer({ min: 1, max: 600_000 }), rate, description: fc.constantFrom('Arbeitspreis Strom', 'Netzentgelt & Umlagen <§19>', 'Stromsteuer') });
const feeLineArb = (rate: fc.Arbitrary<string>) =>
  fc.record({ days: fc.integer({ min: 1, max: 31 }), monthDays: fc.constantFrom(30, 31), price: fc.integer({ min: 1_000_000, max: 30_000_000 }), rate, english: fc.boolean() });

const documentArb = fc
  .record({
    kind: fc.constantFrom<'invoice' | 'credit_note'>('invoice', 'invoice', 'credit_note'),
    mixed: fc.boolean(),
    rate: rateArb,
    month: fc.constantFrom(['2026-10-01', '2026-11-01'], ['2026-03-01', '2026-04-01'], ['2026-02-01', '2026-03-01']),
    energy: fc.array(energyLineArb(rateArb), { minLength: 1, maxLength: 4 }),
    fees: fc.array(feeLineArb(rateArb), { minLength: 0, maxLength: 2 }),
    prepaymentShare: fc.constantFrom(0, 0, 50, 100, 130),
    meters: fc.integer({ min: 0, max: 3 }),
    directDebit: fc.boolean(),
    /** Whether a customer who pays by transfer gave an account (where a credit is paid out to). */
    transferIban: fc.boolean(),
    /** Whether money moves for a credit note's cancellation: its refund of what was paid. */
    refunded: fc.boolean(),
    vatId: fc.boolean(),
    customerName: nameArb,
    customerNumber: fc.option(fc.constantFrom('K-1001', 'K&<2>'), { nil: null }),
    buyerVatId: fc.option(fc.constantFrom('DE136695976', 'ATU13585627', 'FR40303265045', 'NL123456789B01'), { nil: null }),
    // Leitweg-IDs of public buyers (BT-10): Grobadressierung-Feinadressierung-Prüfziffer.
    buyerReference: fc.option(fc.constantFrom('04011000-12345-03', '991-01234-44', '05315-A&B-17'), { nil: null }),
  })
  .map((g): InvoiceDocument => {
    const [periodStart, periodEnd] = g.month as [string, string];
    const rateOf = (rate: string) => (g.mixed ? rate : g.rate);
    const lines: InvoiceLine[] = [
      ...g.energy.map((e) => {
        const net = (BigInt(e.wh) * BigInt(e.price) + 5_000_000n) / 10_000_000n;
        return { description: e.description, periodStart, periodEnd, quantity: formatDecimal(BigInt(e.wh), 3), unit: 'kWh', unitPrice: formatDecimal(BigInt(e.price), 6), taxRate: rateOf(e.rate), netAmount: formatCents(net) };
      }),
      ...g.fees.map((f) => {
        const months = (BigInt(f.days) * 1_000_000n) / BigInt(f.monthDays);
        const net = (months * BigInt(f.price) + 500_000_000_000n) / 1_000_000_000_000n;
        const unit = f.english ? (months === 1_000_000n ? 'month' : 'months') : months === 1_000_000n ? 'Monat' : 'Monate';
        return { description: 'Grundpreis (anteilig)', periodStart, periodEnd, quantity: formatDecimal(months, 6), unit, unitPrice: formatDecimal(BigInt(f.price), 6), taxRate: rateOf(f.rate), netAmount: formatCents(net) };
      }),
    ];
    const rates = new Map<string, bigint>();
    for (const line of lines) rates.set(line.taxRate, (rates.get(line.taxRate) ?? 0n) + BigInt(line.netAmount.replace('.', '')));
    let taxes = [...rates].map(([percentage, net]) => ({ percentage, net, tax: taxOf(net, BigInt(percentage.replace('.', ''))) }));
    let net = taxes.reduce((sum, t) => sum + t.net, 0n);
    let gross = net + taxes.reduce((sum, t) => sum + t.tax, 0n);
    let prepayments = (gross * BigInt(g.prepaymentShare)) / 100n;
    let outLines = lines;
    if (g.kind === 'credit_note') {
      // A cancellation negates every amount, as Invoice.cancel does.
      const neg = (v: string) => (v.startsWith('-') ? v.slice(1) : `-${v}`);
      outLines = lines.map((l) => ({ ...l, quantity: neg(l.quantity), netAmount: neg(l.netAmount) }));
      taxes = taxes.map((t) => ({ ...t, net: -t.net, tax: -t.tax }));
      net = -net;
      gross = -gross;
      prepayments = -prepayments;
    }
    const meters = Array.from({ length: g.meters }, (_, i) => ({
      marketLocationId: `5123456789${i}`,
      meterNumber: `1ESY${i}`,
      label: null,
      readings: null,
      consumption: '1.000',
      method: 'measured' as const,
      previousYearConsumption: null,
    }));
    return {
      kind: g.kind,
      locale: 'de-DE',
      number: g.kind === 'invoice' ? 'INV-2026-000042' : 'CN-2026-000007',
      issuedAt: '2026-11-03',
      dueDate: '2026-11-17',
      periodStart,
      periodEnd,
      currency: 'EUR',
      seller: {
        name: 'Stadtwerke Müller & Co. <Strom> GmbH',
        address: address('Hauptstraße 1', 'Musterstadt', '12345'),
        vatId: g.vatId ? 'DE123456789' : null,
        taxNumber: g.vatId ? null : '123/456/78901',
        register: { court: 'Amtsgericht Musterstadt', number: 'HRB 12345' },
        managingDirectors: [],
        contact: { email: 'service@stadtwerke.example', phone: '+49 30 123456', website: null },
        bankAccount: { holder: 'Stadtwerke Müller & Co.', iban: 'DE02120300000000202051', bic: 'BYLADEM1001' },
      },
      customer: { name: g.customerName, number: g.customerNumber, address: address('Lindenallee 7 & 8', 'Köln', '50667'), vatId: g.buyerVatId, buyerReference: g.buyerReference },
      contractNumber: 'V-2026-17',
      productName: null,
      supplyAddress: null,
      template: { subject: 'Ihre Stromrechnung', introText: null, closingText: null, footerText: null },
      cancels:
        g.kind === 'credit_note'
          ? { number: 'INV-2026-000041', issuedAt: '2026-11-01', refunded: g.refunded ? formatCents(prepayments - gross) : '0.00', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' }
          : null,
      lines: outLines,
      netTotal: formatCents(net),
      taxes: taxes.map((t) => ({ percentage: t.percentage, netAmount: formatCents(t.net), taxAmount: formatCents(t.tax) })),
      grossTotal: formatCents(gross),
      prepaymentsTotal: formatCents(prepayments),
      prepaymentTaxes: [],
      amountDue: formatCents(gross - prepayments),
      payment: g.directDebit
        ? { method: 'sepa_direct_debit', mandateReference: 'MANDAT-1 & 2', creditorId: 'DE98ZZZ09999999999', customerIban: 'DE89370400440532013000' }
        : { method: 'transfer', customerIban: g.transferIban ? 'DE02120300000000202051' : null },
      meters,
      priceComponents: [],
      nextPrepayments: [],
      fuelMix: null,
      cancellation: null,
      disputeResolution: '',
    };
  });

describe.skipIf(!haveValidators)('CII e-invoices pass CEN’s EN 16931 validation', () => {
  let sef: string;
  const dir = mkdtempSync(join(tmpdir(), 'ebbs-cii-'));
  const documents = fc.sample(documentArb, { numRuns: 30, seed: 16931 });
  const files = documents.map((document, i) => {
    const file = join(dir, `${i}-${document.kind}.xml`);
    writeFileSync(file, writeCii(document, { profile: i % 5 === 4 ? 'en16931' : 'xrechnung' }));
    return { file, document };
  });

  beforeAll(() => {
    sef = compiledRules();
  }, 180_000);

  it('samples what must be covered', () => {
    expect(documents.some((d) => d.kind === 'credit_note' && d.cancels!.refunded === '0.00')).toBe(true);
    expect(documents.some((d) => d.kind === 'credit_note' && d.cancels!.refunded !== '0.00')).toBe(true);
    // Credits paid out to the customer's account, and to none known (BT-81 58 and 1).
    expect(documents.some((d) => settlementOf(d) === 'payout' && d.payment.customerIban !== null)).toBe(true);
    expect(documents.some((d) => settlementOf(d) === 'payout' && d.payment.customerIban === null)).toBe(true);
    expect(documents.some((d) => d.taxes.length > 1)).toBe(true);
    expect(documents.some((d) => d.taxes.length === 1 && d.taxes[0]!.percentage === '7.00')).toBe(true);
    expect(documents.some((d) => d.prepaymentsTotal !== '0.00' && d.kind === 'invoice')).toBe(true);
    expect(documents.some((d) => d.periodStart === '2026-10-01')).toBe(true);
    expect(documents.some((d) => d.meters.length > 1)).toBe(true);
    expect(documents.some((d) => d.customer.vatId !== null)).toBe(true);
    expect(documents.some((d) => d.customer.vatId === null)).toBe(true);
    expect(documents.some((d) => d.customer.buyerReference !== null)).toBe(true);
    expect(documents.some((d) => d.customer.buyerReference === null)).toBe(true);
    expect(documents.every((d) => eInvoiceViolations(d).length === 0)).toBe(true);
  });

  it('writes the buyer’s VAT id (BT-48) and its buyer reference (BT-10) when given', () => {
    const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const { file, document } of files) {
      const xml = readFileSync(file, 'utf8');
      const buyer = /<ram:BuyerTradeParty>[\s\S]*?<\/ram:BuyerTradeParty>/.exec(xml)![0];
      const { vatId, buyerReference } = document.customer;
      if (vatId) expect(buyer).toContain(`<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${vatId}</ram:ID></ram:SpecifiedTaxRegistration>`);
      else expect(buyer).not.toContain('SpecifiedTaxRegistration');
      const expected = buyerReference ?? document.customer.number ?? document.contractNumber!;
      expect(xml).toContain(`<ram:BuyerReference>${escape(expected)}</ram:BuyerReference>`);
    }
  });

  it('writes XML the CII D16B schema accepts', () => {
    if (spawnSync('xmllint', ['--version']).error) throw new Error('xmllint missing: apt-get install -y libxml2-utils');
    expect(xsdErrors(files.map((f) => f.file))).toBeNull();
  });

  it('breaks none of CEN’s fatal rules', () => {
    const failures = files.flatMap(({ file }) => {
      const rules = fatalRules(sef, readFileSync(file, 'utf8'));
      return rules.length ? [`${file}: ${rules.join(', ')}`] : [];
    });
    expect(failures).toEqual([]);
  }, 60_000);

  it('is caught when a total is off by a cent', () => {
    const xml = readFileSync(files[0]!.file, 'utf8');
    const tampered = xml.replace(/<ram:GrandTotalAmount>(-?\d+)\.(\d\d)<\/ram:GrandTotalAmount>/, (_, whole: string, fraction: string) => {
      const cents = BigInt(whole + fraction) + 1n;
      return `<ram:GrandTotalAmount>${formatCents(cents)}</ram:GrandTotalAmount>`;
    });
    expect(tampered).not.toBe(xml);
    expect(fatalRules(sef, tampered)).toContain('BR-CO-15');
  });
});
