import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { E_INVOICE_PROFILES, escapeXml, SPECIFICATION_IDS, unitCode, dayBefore, writeCii, writeCiiProfiles } from '../../core/billing/invoices/e-invoice/cii.js';
import { eInvoiceViolations } from '../../core/billing/invoices/e-invoice/e-invoice-rules.js';
import type { InvoiceDocument } from '../../core/billing/invoices/invoice-pdf-model.js';
import { billedInvoice, credit, english, stornorechnung, transfer, typical } from '../support/invoice-documents.js';

const address = { line1: 'Hauptstraße 1', line2: null, line3: null, line4: null, locality: 'Berlin', postCode: '10115', country: 'DE' };

const complete: InvoiceDocument = {
  kind: 'invoice',
  locale: 'de-DE',
  number: 'INV-2026-000001',
  issuedAt: '2026-11-02',
  dueDate: '2026-11-16',
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  currency: 'EUR',
  seller: {
    name: 'Stadtwerke',
    address,
    vatId: 'DE123456789',
    taxNumber: null,
    register: null,
    managingDirectors: [],
    contact: { email: 'a@b.example', phone: '+49 1', website: null },
    bankAccount: { holder: 'Stadtwerke', iban: 'DE02120300000000202051', bic: null },
  },
  customer: { name: 'Erika', number: 'K-1', address, vatId: null, buyerReference: null },
  contractNumber: 'V-1',
  productName: null,
  supplyAddress: null,
  template: { subject: null, introText: null, closingText: null, footerText: null },
  cancels: null,
  lines: [{ description: 'Grundpreis', periodStart: '2026-10-01', periodEnd: '2026-11-01', quantity: '1.000000', unit: 'Monat', unitPrice: '10.000000', taxRate: '19.00', netAmount: '10.00' }],
  netTotal: '10.00',
  taxes: [{ percentage: '19.00', netAmount: '10.00', taxAmount: '1.90' }],
  grossTotal: '11.90',
  prepaymentsTotal: '0.00',
  prepaymentTaxes: [],
  amountDue: '11.90',
  payment: { method: 'transfer', customerIban: null },
  meters: [],
  priceComponents: [],
  nextPrepayments: [],
  fuelMix: null,
  cancellation: null,
  disputeResolution: '',
};

describe('the German CIUS rules the project checks itself', () => {
  it('accepts a complete document', () => {
    expect(eInvoiceViolations(complete)).toEqual([]);
  });

  it('names the seller contact, post codes, buyer reference and payment account that are missing', () => {
    expect(
      eInvoiceViolations({
        ...complete,
        seller: { ...complete.seller, contact: { email: null, phone: ' ', website: null }, bankAccount: null, address: { ...address, postCode: '' } },
        customer: { ...complete.customer, number: null, address: { ...address, postCode: '' } },
        contractNumber: null,
      }),
    ).toEqual(['BR-DE-6', 'BR-DE-7', 'BR-DE-4', 'BR-DE-9', 'BR-DE-15', 'BR-DE-23-a']);
  });

  it('needs the debited account of a direct debit and a seller identifier', () => {
    expect(
      eInvoiceViolations({
        ...complete,
        seller: { ...complete.seller, vatId: null, taxNumber: '12/345/67890' },
        payment: { method: 'sepa_direct_debit', mandateReference: 'M-1', creditorId: 'DE98ZZZ09999999999', customerIban: null },
      }),
    ).toEqual(['BR-CO-26', 'BR-DE-25-a']);
    expect(eInvoiceViolations({ ...complete, customer: { ...complete.customer, address: null } })).toEqual(['BR-10', 'BR-DE-8', 'BR-DE-9']);
  });
});

describe('the CII writer', () => {
  it('escapes text, maps units and writes the last day of the period', () => {
    expect(escapeXml(`a & <b> "c" 'd'\u0001`)).toBe('a &amp; &lt;b&gt; &quot;c&quot; &apos;d&apos;');
    expect([unitCode('kWh'), unitCode('Monate'), unitCode('month'), unitCode('Stück')]).toEqual(['KWH', 'MON', 'MON', 'C62']);
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    const xml = writeCii(complete);
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>');
    expect(xml).toContain('<udt:DateTimeString format="102">20261031</udt:DateTimeString>');
    expect(xml).toContain('<ram:BuyerReference>K-1</ram:BuyerReference>');
    expect(writeCii(complete, { profile: 'en16931' })).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
  });

  it('escapes any text so that it reads back as itself, less the characters XML 1.0 forbids', () => {
    const unescape = (xml: string) => xml.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!);
    // eslint-disable-next-line no-control-regex
    const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
    const text = fc.string({ unit: fc.constantFrom('a', 'ß', ' ', '&', '<', '>', '"', "'", ';', 'amp', '\u0001', '\t', '\uFFFE', '€') });
    fc.assert(
      fc.property(text, (value) => {
        const escaped = escapeXml(value);
        expect(escaped).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|apos);)/);
        expect(escaped).not.toMatch(forbidden);
        expect(unescape(escaped)).toBe(value.replace(forbidden, ''));
      }),
    );
  });

  it('writes every profile from one pass over the document, apart only in the specification identifier (BT-24)', () => {
    const context = (profile: keyof typeof SPECIFICATION_IDS) => `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${SPECIFICATION_IDS[profile]}</ram:ID>`;
    for (const document of [complete, typical, credit, english, stornorechnung, transfer, ...Array.from({ length: 20 }, (_, index) => billedInvoice(index))]) {
      const written = writeCiiProfiles(document);
      expect([...written.keys()]).toEqual([...E_INVOICE_PROFILES]);
      for (const profile of E_INVOICE_PROFILES) expect(written.get(profile)).toBe(writeCii(document, { profile }));
      const [xrechnung, en16931] = [written.get('xrechnung')!, written.get('en16931')!];
      expect(xrechnung.split(context('xrechnung'))).toEqual(en16931.split(context('en16931')));
      expect(xrechnung.split(context('xrechnung'))).toHaveLength(2);
    }
  });

  it('writes the payment instructions the PDF prints as the payment terms (BT-20)', () => {
    /** BT-20 of the document, matched with any space where the PDF text has one (amounts take a no-break space). */
    const terms = (document: InvoiceDocument, text: string) => {
      const pattern = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s');
      expect(writeCii(document)).toMatch(new RegExp(`<ram:SpecifiedTradePaymentTerms><ram:Description>${pattern}</ram:Description><ram:DueDateDateTime>`));
    };
    terms(typical, 'Wir ziehen 57,99 € am 17.11.2026 per SEPA-Lastschrift von Ihrem Konto DE89 XXXX XXXX XXXX XX30 00 ein. Mandatsreferenz: MREF-K1001-01, Gläubiger-ID: DE98ZZZ09999999999.');
    terms(stornorechnung, 'Die Rechnung INV-2026-000001 ist storniert; offene Beträge daraus müssen Sie nicht mehr zahlen. Wir erstatten Ihnen 57,99 € bis zum 04.12.2026 auf Ihr Konto DE89 XXXX XXXX XXXX XX30 00.');
    // The Stornorechnung of a credit never paid out: its amount due is positive, yet nothing is to be paid.
    const withdrawn: InvoiceDocument = { ...stornorechnung, amountDue: '35.72', cancels: { ...stornorechnung.cancels!, refunded: '0.00' } };
    terms(withdrawn, 'Das Guthaben aus der Rechnung INV-2026-000001 ist storniert. Den noch nicht ausgezahlten Betrag von 35,72 € zahlen wir nicht aus; dafür müssen Sie nichts zahlen.');
    expect(writeCii({ ...english, payment: transfer.payment })).toMatch(/<ram:Description>Please transfer €57\.99 by 17\/11\/2026 to our account IBAN /);
  });

  it('names the means of payment (BG-16): the customer\'s mandate or a transfer to the seller, a payout to the customer for a credit, or clearing (97) for a cancellation no money moves for', () => {
    const means = (document: InvoiceDocument) => {
      const xml = writeCii(document);
      const code = /<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>(\d+)<\/ram:TypeCode>/.exec(xml)![1];
      const mandate = xml.includes('<ram:DirectDebitMandateID>') && xml.includes('<ram:CreditorReferenceID>') && xml.includes('<ram:PayerPartyDebtorFinancialAccount>');
      const payee = /<ram:PayeePartyCreditorFinancialAccount><ram:IBANID>(\w+)<\/ram:IBANID>/.exec(xml)?.[1] ?? null;
      return [code, mandate, payee];
    };
    const seller = typical.seller.bankAccount!.iban;
    const customer = typical.payment.customerIban!;
    const moved = { refunded: '0.00', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' };
    const cancelling = (amounts: Partial<typeof moved>, amountDue = stornorechnung.amountDue): InvoiceDocument => ({
      ...stornorechnung,
      amountDue,
      cancels: { ...stornorechnung.cancels!, ...moved, ...amounts },
    });
    expect(means(typical)).toEqual(['59', true, null]);
    expect(means(transfer)).toEqual(['58', false, seller]);
    // A credit is paid out to the customer's account, not debited and not transferred to the seller;
    // with no account known, the terms (BT-20) say the seller will get in touch about the payout.
    expect(means({ ...credit, payment: typical.payment })).toEqual(['58', false, customer]);
    expect(means({ ...credit, payment: { method: 'transfer', customerIban: customer } })).toEqual(['58', false, customer]);
    expect(means(credit)).toEqual(['1', false, null]);
    // A Stornorechnung refunding what was paid, or refunding a debit once it arrives: a payout too.
    expect(means(stornorechnung)).toEqual(['58', false, customer]);
    expect(means(cancelling({ collecting: '57.99' }))).toEqual(['58', false, customer]);
    expect(means({ ...stornorechnung, payment: transfer.payment })).toEqual(['1', false, null]);
    // That of an invoice nobody paid, and that of a credit never paid out: nothing moves either way.
    expect(means(cancelling({}))).toEqual(['97', false, null]);
    expect(means({ ...cancelling({}), payment: transfer.payment })).toEqual(['97', false, null]);
    expect(means(cancelling({}, '35.72'))).toEqual(['97', false, null]);
    // That of a credit paid out, or being paid out: what reached the customer is debited.
    expect(means(cancelling({ creditPaidOut: '35.72' }, '35.72'))).toEqual(['59', true, null]);
    expect(means(cancelling({ creditPayingOut: '35.72' }, '35.72'))).toEqual(['59', true, null]);
    expect(means({ ...cancelling({ creditPaidOut: '35.72' }, '35.72'), payment: transfer.payment })).toEqual(['58', false, seller]);
    // Neither clearing nor a payout needs a mandate (BR-DE-25-a) or the seller's account (BR-DE-23-a);
    // a direct debit and a transfer to the seller do.
    const incomplete = { ...cancelling({}), payment: { ...typical.payment, mandateReference: '' }, seller: { ...typical.seller, bankAccount: null } } as InvoiceDocument;
    expect(eInvoiceViolations(incomplete)).toEqual([]);
    expect(eInvoiceViolations({ ...incomplete, cancels: stornorechnung.cancels })).toEqual([]);
    expect(eInvoiceViolations({ ...incomplete, cancels: stornorechnung.cancels, payment: transfer.payment })).toEqual([]);
    expect(eInvoiceViolations({ ...incomplete, cancels: null, kind: 'invoice', amountDue: typical.amountDue })).toEqual(['BR-DE-25-a']);
    expect(eInvoiceViolations({ ...incomplete, cancels: null, kind: 'invoice', amountDue: typical.amountDue, payment: transfer.payment })).toEqual(['BR-DE-23-a']);
  });

  it('writes a credit note as 381 with positive amounts and the cancelled invoice', () => {
    const credit = writeCii({
      ...complete,
      kind: 'credit_note',
      cancels: { number: 'INV-2026-000001', issuedAt: '2026-11-02', refunded: '0.00', collecting: '0.00', creditPaidOut: '0.00', creditPayingOut: '0.00' },
      lines: complete.lines.map((line) => ({ ...line, quantity: '-1.000000', netAmount: '-10.00' })),
      taxes: [{ percentage: '19.00', netAmount: '-10.00', taxAmount: '-1.90' }],
      prepaymentsTotal: '-5.00',
    });
    expect(credit).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(credit).toContain('<ram:BilledQuantity unitCode="MON">1.000000</ram:BilledQuantity>');
    expect(credit).toContain('<ram:GrandTotalAmount>11.90</ram:GrandTotalAmount>');
    expect(credit).toContain('<ram:TotalPrepaidAmount>5.00</ram:TotalPrepaidAmount><ram:DuePayableAmount>6.90</ram:DuePayableAmount>');
    expect(credit).toContain('<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>INV-2026-000001</ram:IssuerAssignedID>');
  });
});
