import { describe, expect, it } from 'vitest';
import { defaultDisputeResolution, renderInvoicePdf, type InvoiceDocument, type InvoiceLine } from '../../core/billing/invoices/invoice-pdf.js';
import { attachmentsOf, extractPages, fontsOf, xmpOf } from '../support/pdf.js';
import { address } from '../support/invoice-documents.js';

const line = (n: number): InvoiceLine => ({
  description: `Arbeitspreis Zählpunkt ${n}`,
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  quantity: '100.000',
  unit: 'kWh',
  unitPrice: '0.250000',
  taxRate: '19.00',
  netAmount: '25.00',
});

/** A plain invoice, with enough lines to run onto further pages. */
const document: InvoiceDocument = {
  kind: 'invoice',
  locale: 'de-DE',
  number: 'INV-2026-000042',
  issuedAt: '2026-11-03',
  dueDate: '2026-11-17',
  periodStart: '2026-10-01',
  periodEnd: '2026-11-01',
  currency: 'EUR',
  seller: {
    name: 'Stadtwerke Musterstadt GmbH',
    address: address('Hauptstraße 1', '12345', 'Musterstadt'),
    vatId: 'DE123456789',
    taxNumber: null,
    register: { court: 'Amtsgericht Musterstadt', number: 'HRB 12345' },
    managingDirectors: ['Max Muster'],
    contact: { email: 'service@sw-musterstadt.de', phone: null, website: null },
    bankAccount: { holder: 'Stadtwerke Musterstadt GmbH', iban: 'DE02120300000000202051', bic: null },
  },
  customer: { name: 'Erika Mustermann', number: 'K-1001', address: address('Nebenweg 7', '54321', 'Beispielhausen'), vatId: null, buyerReference: null },
  contractNumber: null,
  productName: null,
  supplyAddress: null,
  template: { subject: 'Ihre Stromrechnung', introText: null, closingText: null, footerText: null },
  cancels: null,
  lines: Array.from({ length: 60 }, (_, i) => line(i + 1)),
  netTotal: '1500.00',
  taxes: [{ percentage: '19.00', netAmount: '1500.00', taxAmount: '285.00' }],
  grossTotal: '1785.00',
  prepaymentsTotal: '0.00',
  prepaymentTaxes: [],
  amountDue: '1785.00',
  payment: { method: 'transfer', customerIban: null },
  meters: [],
  priceComponents: [],
  nextPrepayments: [],
  fuelMix: null,
  cancellation: null,
  disputeResolution: defaultDisputeResolution('de-DE'),
};

/** A small CII invoice; what it says does not matter to the PDF, only that it travels byte for byte. */
const cii = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>INV-2026-000042</ram:ID>
    <ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20261103</udt:DateTimeString></ram:IssueDateTime>
    <ram:IncludedNote><ram:Content>Müller &amp; Söhne – €</ram:Content></ram:IncludedNote>
  </rsm:ExchangedDocument>
</rsm:CrossIndustryInvoice>
`;

const markerDe = 'Visualisierung der XRechnung – keine Rechnung im Sinne des § 14 UStG';
const markerEn = 'Visualisation of the XRechnung e-invoice – not an invoice itself';

describe('invoice PDF with an e-invoice', () => {
  it('embeds the CII XML as factur-x.xml, an alternative associated file, for a Factur-X hybrid', async () => {
    const buffer = await renderInvoicePdf(document, { format: 'facturx', xml: cii });
    const attachments = await attachmentsOf(buffer);
    expect([...attachments.keys()]).toEqual(['factur-x.xml']);
    expect(attachments.get('factur-x.xml')!.content.toString('utf8')).toBe(cii);

    const raw = buffer.toString('latin1');
    expect(raw).toMatch(/\/AFRelationship \/Alternative/);
    expect(raw).toMatch(/\/AF \[\d+ 0 R\]/);
    expect(raw).toMatch(/\/EmbeddedFiles/);
    expect(raw).toMatch(/\/Subtype \/text#2Fxml/);
    expect(raw).toMatch(/\/ModDate \(D:20261103000000Z\)/);
    for (const font of fontsOf(buffer)) expect(font.embedded).toBe(true);
    expect(fontsOf(buffer).length).toBeGreaterThan(0);
  });

  it('declares the Factur-X extension schema and values in the XMP beside the PDF/A-3b identification', async () => {
    const xmp = xmpOf(await renderInvoicePdf(document, { format: 'facturx', xml: cii }))!;
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(xmp).toContain('xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"');
    expect(xmp).toContain('<pdfaExtension:schemas>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    for (const property of ['DocumentType', 'DocumentFileName', 'Version', 'ConformanceLevel']) expect(xmp).toContain(`<pdfaProperty:name>${property}</pdfaProperty:name>`);
    expect(xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:Version>1.0</fx:Version>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    // Well-formed: every element closed (no XML parser here; a crude balance check of the fx part).
    expect(xmp.match(/<rdf:Description\b/g)!.length).toBe(xmp.match(/<\/rdf:Description>/g)!.length);
  });

  it('renders a Factur-X hybrid to identical bytes', async () => {
    const first = await renderInvoicePdf(document, { format: 'facturx', xml: cii });
    expect((await renderInvoicePdf(document, { format: 'facturx', xml: cii })).equals(first)).toBe(true);
  });

  it('marks every page of an XRechnung visualisation as not an invoice and embeds nothing', async () => {
    const buffer = await renderInvoicePdf(document, { format: 'xrechnung', xml: cii });
    const pages = await extractPages(buffer);
    expect(pages.length).toBeGreaterThan(1);
    for (const text of pages) expect(text).toContain(markerDe);
    expect(await attachmentsOf(buffer)).toEqual(new Map());
    expect(buffer.toString('latin1')).not.toMatch(/\/EmbeddedFiles|\/AF\b|\/AFRelationship/);
    expect(xmpOf(buffer)).not.toContain('factur-x');

    const english = await extractPages(await renderInvoicePdf({ ...document, locale: 'en-GB', disputeResolution: defaultDisputeResolution('en-GB') }, { format: 'xrechnung', xml: cii }));
    expect(english.length).toBeGreaterThan(1);
    for (const text of english) expect(text).toContain(markerEn);
  });

  it('embeds nothing and prints no marker without an e-invoice', async () => {
    const buffer = await renderInvoicePdf(document);
    expect(await attachmentsOf(buffer)).toEqual(new Map());
    expect(buffer.toString('latin1')).not.toMatch(/\/EmbeddedFiles|\/AF\b|\/AFRelationship/);
    expect(xmpOf(buffer)).not.toContain('factur-x');
    for (const text of await extractPages(buffer)) expect(text).not.toContain('XRechnung');
  });
});
