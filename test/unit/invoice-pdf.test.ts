import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf, type InvoiceDocument } from '../../core/billing/invoices/invoice-pdf.js';
import { address, credit, english, line, stornorechnung, transfer, typical } from '../support/invoice-documents.js';
import { extractPages, fontsOf, textRunsOf, xmpOf } from '../support/pdf.js';

const textOf = async (document: InvoiceDocument) => (await extractPages(await renderInvoicePdf(document))).join(' ');

function expectAll(text: string, expected: readonly string[]): void {
  for (const item of expected) expect(text).toContain(item);
}

/** A sentence that may wrap anywhere (also after a hyphen or slash, where extraction adds a space). */
function expectWrapped(text: string, sentence: string): void {
  const squeeze = (value: string) => value.replace(/\s+/g, '');
  expect(squeeze(text)).toContain(squeeze(sentence));
  for (const word of sentence.split(' ').filter((word) => !/[-/]/.test(word))) expect(text).toContain(word);
}

describe('invoice PDF (§14 UStG, §40 EnWG)', () => {
  it('prints a typical German invoice on at most two pages with everything the law asks for', async () => {
    const pages = await extractPages(await renderInvoicePdf(typical));
    expect(pages.length).toBeLessThanOrEqual(2);
    const text = pages.join(' ');
    expectAll(text, [
      // Seller: name, address, contact, legal data and bank account.
      'Stadtwerke Musterstadt GmbH',
      'Hauptstraße 1',
      '12345 Musterstadt',
      'Tel. 0123 456789-0',
      'E-Mail service@sw-musterstadt.de',
      'Web www.sw-musterstadt.de',
      'USt-IdNr.: DE123456789',
      'Registergericht: Amtsgericht Musterstadt, HRB 12345',
      'Geschäftsführung: Dr. Anna Beispiel, Max Muster',
      'Bankverbindung: Stadtwerke Musterstadt GmbH',
      'IBAN DE02 1203 0000 0000 2020 51',
      'BIC BYLADEM1001',
      // Buyer and document.
      'Erika Mustermann Nebenweg 7 54321 Beispielhausen',
      'Rechnung INV-2026-000001',
      'Rechnungsnummer INV-2026-000001',
      'Rechnungsdatum 03.11.2026',
      'Kundennummer K-1001',
      'Vertragsnummer V-2026-0042',
      'Leistungszeitraum 01.10.2026 – 31.10.2026',
      'Tarif Mieterstrom Nebenweg',
      'Lieferstelle Nebenweg 7, Wohnung 3, 54321 Beispielhausen',
      'Ihre Stromrechnung',
      typical.template.introText!,
      typical.template.closingText!,
      typical.template.footerText!,
      // Lines, taxes per rate, totals, prepayments with their VAT, amount due.
      'Beschreibung Zeitraum Menge Einzelpreis USt. Netto',
      'Arbeitspreis Wärmepumpe 01.10.2026 – 31.10.2026 410,250 kWh 0,228000 € 19,00 % 93,54 €',
      'Energieberatung vor Ort 01.10.2026 – 31.10.2026 1 Stück 40,000000 € 7,00 % 40,00 €',
      'Summe netto 220,83 €',
      'USt. 19,00 % auf 180,83 € 34,36 €',
      'USt. 7,00 % auf 40,00 € 2,80 €',
      'Rechnungsbetrag brutto 257,99 €',
      'Geleistete Abschlagszahlungen -200,00 €',
      'darin enthaltene USt. 19,00 % auf 168,07 € 31,93 €',
      'Zu zahlen 57,99 €',
      'Fällig am 17.11.2026',
      // SEPA direct debit.
      // Meters: MaLo-ID, number, readings, consumption and how it was obtained.
      'MaLo-ID Zählernummer Zählerstand alt Zählerstand neu Verbrauch Ermittlung',
      '51238696781 1ESY1160123456 Wohnung 3 12.345,6 kWh 01.10.2026 12.598,1 kWh 01.11.2026 252,500 kWh gemessen',
      '51238696792 1EMH0012345678 Wärmepumpe – – 410,250 kWh gemessen',
      'Gesamtverbrauch 662,750 kWh',
      // The same period a year earlier.
      'Verbrauchsvergleich mit dem Vorjahreszeitraum',
      'Vorjahr: 01.10.2025 – 31.10.2025 · Dieser Zeitraum: 01.10.2026 – 31.10.2026',
      'Vorjahr 268,300 kWh Dieser Zeitraum 252,500 kWh',
      'Vorjahr 395,000 kWh Dieser Zeitraum 410,250 kWh',
      // Price components.
      'Preisbestandteile (netto, § 40 Abs. 3 EnWG)',
      'Energie und Vertrieb 92,01 €',
      'Netzentgelte 52,30 €',
      'Messstellenbetrieb 4,17 €',
      'Konzessionsabgabe 11,21 €',
      'Umlagen und Aufschläge 7,39 €',
      'Stromsteuer 13,75 €',
      'Sonstiges 40,00 €',
      'Summe 220,83 €',
      // Prepayment plan.
      'Ihre nächsten Abschläge',
      '01.12.2026 75,00 €',
      '01.01.2027 75,00 €',
      '01.02.2027 80,00 €',
      // Fuel mix.
      'Stromkennzeichnung (§ 42 EnWG)',
      'Kernkraft 0,0 %',
      'Kohle 18,4 %',
      'Erdgas 12,1 %',
      'Sonstige fossile Energieträger 1,5 %',
      'Erneuerbare Energien, gefördert nach dem EEG 41,0 %',
      'Erneuerbare Energien mit Herkunftsnachweis, nicht gefördert nach dem EEG 27,0 %',
      'CO₂-Emissionen 198 g/kWh',
      'Radioaktiver Abfall 0,0001 mg/kWh',
      'Energieträgermix 2025',
      // Termination, disputes, pages.
      'Kündigung bis 30.11.2026 zum 31.12.2026 (Kündigungsfrist 1 Monat)',
      'Schlichtungsstelle Energie e.V.',
      'Verbraucherservice Energie der Bundesnetzagentur',
      `Seite 1 von ${pages.length}`,
      `Seite ${pages.length} von ${pages.length}`,
    ]);
    expectWrapped(text, 'Wir ziehen 57,99 € am 17.11.2026 per SEPA-Lastschrift von Ihrem Konto DE89 XXXX XXXX XXXX XX30 00 ein. Mandatsreferenz: MREF-K1001-01, Gläubiger-ID: DE98ZZZ09999999999.');
    expect(text).not.toContain('Gutschrift');
    expect(text).not.toContain('keine Vergleichsdaten');
  });

  it('embeds every font and carries the PDF/A-3b markers', async () => {
    const buffer = await renderInvoicePdf(typical);
    expect(buffer.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    const fonts = fontsOf(buffer);
    expect(fonts.length).toBeGreaterThanOrEqual(2);
    for (const font of fonts) expect(font).toEqual({ baseFont: expect.stringMatching(/^[A-Z]{6}\+DejaVuSansCondensed/), embedded: true });
    const raw = buffer.toString('latin1');
    expect(raw).not.toMatch(/\/BaseFont\s*\/(Helvetica|Times|Courier|Symbol|ZapfDingbats)/);
    expect(raw).toMatch(/\/OutputIntents\s*\[\s*\d+ 0 R/);
    expect(raw).toContain('/S /GTS_PDFA1');
    expect(raw).toMatch(/\/MarkInfo\s+\d+ 0 R/);
    const xmp = xmpOf(buffer)!;
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(xmp).toContain('Rechnung INV-2026-000001');
    expect(xmp).toContain('<xmp:CreateDate>2026-11-03T00:00:00Z</xmp:CreateDate>');
  });

  it('escapes the seller name in the XMP metadata, leaving out characters XML forbids', async () => {
    const xmp = xmpOf(await renderInvoicePdf({ ...typical, seller: { ...typical.seller, name: 'Müller & Söhne <Energie>\u0001 GmbH' } }))!;
    expect(xmp).toContain('<rdf:li>Müller &amp; Söhne &lt;Energie&gt; GmbH</rdf:li>');
  });

  it('leaves out of every text the control characters the API accepts in names and texts, and prints a tab as a space', async () => {
    // What XML forbids (the e-invoice leaves those out too), DEL, and C1 controls such as NEL (U+0085), at which pdfkit broke the line.
    const dirty = (text: string) => `${text.slice(0, 3)}\u0001\u007f${text.slice(3)}\u0007\u001f\u0085\u009f\uFFFE`.replaceAll(' ', '\t');
    const document: InvoiceDocument = {
      ...typical,
      seller: { ...typical.seller, name: dirty(typical.seller.name) },
      customer: { ...typical.customer, name: dirty(typical.customer.name), address: address(dirty('Nebenweg 7'), '54321', 'Beispielhausen') },
      template: { ...typical.template, introText: dirty(typical.template.introText!) },
      lines: typical.lines.map((line) => ({ ...line, description: dirty(line.description) })),
    };
    const pages = await extractPages(await renderInvoicePdf(document));
    // pdfjs extracts a glyph the font lacks as U+0000.
    for (const character of ['\u0000', '\u0001', '\u0007', '\u001f', '\t', '\u007f', '\u0085', '\u009f', '\uFFFE']) expect(pages.join(' ')).not.toContain(character);
    expect(pages).toEqual(await extractPages(await renderInvoicePdf(typical)));
  });

  it('renders the same document to identical bytes, also after other documents filled the shared layout cache', async () => {
    const first = await renderInvoicePdf(typical);
    expect(first.equals(await renderInvoicePdf(typical))).toBe(true);
    // Justified and wrapped text of other documents must not change a word laid out for this one.
    for (const other of [english, stornorechnung, credit, transfer]) await renderInvoicePdf(other);
    expect(first.equals(await renderInvoicePdf(typical))).toBe(true);
  });

  it('titles a cancelling credit note "Stornorechnung" and names the cancelled invoice', async () => {
    const text = await textOf(stornorechnung);
    expectAll(text, [
      'Stornorechnung CN-2026-000001',
      'Storno der Rechnung INV-2026-000001 vom 03.11.2026',
      'Rechnungsdatum 20.11.2026',
      'Leistungszeitraum 01.10.2026 – 31.10.2026',
      'Arbeitspreis Wärmepumpe 01.10.2026 – 31.10.2026 -410,250 kWh 0,228000 € 19,00 % -93,54 €',
      'Summe netto -220,83 €',
      'USt. 19,00 % auf -180,83 € -34,36 €',
      'USt. 7,00 % auf -40,00 € -2,80 €',
      'Rechnungsbetrag brutto -257,99 €',
      'Geleistete Abschlagszahlungen 200,00 €',
      'darin enthaltene USt. 19,00 % auf -168,07 € -31,93 €',
      'Guthaben 57,99 €',
      '1ESY1160123456',
      'Schlichtungsstelle Energie e.V.',
    ]);
    expectWrapped(
      text,
      'Die Rechnung INV-2026-000001 ist storniert; offene Beträge daraus müssen Sie nicht mehr zahlen. Wir erstatten Ihnen 57,99 € bis zum 04.12.2026 auf Ihr Konto DE89 XXXX XXXX XXXX XX30 00.',
    );
    expect(text).not.toContain('Gutschrift');
    expect(text).not.toContain('Zu zahlen');
    // A cancellation carries no consumption advice of its own.
    expect(text).not.toContain('Stromkennzeichnung');
  });

  it('promises the customer of a cancelled invoice back only what they paid towards it', async () => {
    const cancelled = (refunded: string) => ({ ...stornorechnung, cancels: { ...stornorechnung.cancels!, refunded } });
    const unpaid = await textOf(cancelled('0.00'));
    expectWrapped(unpaid, 'Die Rechnung INV-2026-000001 ist storniert; offene Beträge daraus müssen Sie nicht mehr zahlen.');
    expect(unpaid).toContain('Guthaben 57,99 €');
    expect(unpaid).not.toContain('erstatten');
    expectWrapped(await textOf(cancelled('20.00')), 'müssen Sie nicht mehr zahlen. Wir erstatten Ihnen 20,00 € bis zum 04.12.2026 auf Ihr Konto DE89 XXXX XXXX XXXX XX30 00.');
    const noIban = await textOf({ ...cancelled('20.00'), payment: { method: 'transfer', customerIban: null } });
    expectWrapped(noIban, 'müssen Sie nicht mehr zahlen. Für die Auszahlung von 20,00 € setzen wir uns mit Ihnen in Verbindung.');
    const inEnglish = await textOf({ ...english, ...cancelled('0.00'), locale: 'en-GB' });
    expectWrapped(inEnglish, 'Invoice INV-2026-000001 is cancelled: nothing still open on it needs to be paid.');
    expect(inEnglish).not.toContain('refund');
  });

  it('promises back a direct debit that is out with the bank when the invoice is cancelled, once it arrives', async () => {
    const collecting = (refunded: string, amount: string) => ({ ...stornorechnung, cancels: { ...stornorechnung.cancels!, refunded, collecting: amount } });
    expectWrapped(
      await textOf(collecting('0.00', '57.99')),
      'müssen Sie nicht mehr zahlen. Die bereits eingereichte Lastschrift über 57,99 € erstatten wir Ihnen, sobald sie eingegangen ist.',
    );
    expectWrapped(
      await textOf(collecting('20.00', '37.99')),
      'Wir erstatten Ihnen 20,00 € bis zum 04.12.2026 auf Ihr Konto DE89 XXXX XXXX XXXX XX30 00. Die bereits eingereichte Lastschrift über 37,99 € erstatten wir Ihnen, sobald sie eingegangen ist.',
    );
    const inEnglish = await textOf({ ...english, ...collecting('0.00', '57.99'), locale: 'en-GB' });
    expectWrapped(inEnglish, 'nothing still open on it needs to be paid. The direct debit of €57.99 already submitted will be refunded to you once it has arrived.');
  });

  it('asks back of a cancelled credit only what reached the customer, and withdraws the rest', async () => {
    const creditStorno = (creditPaidOut: string, creditPayingOut: string): InvoiceDocument => ({
      ...stornorechnung,
      grossTotal: '164.28',
      prepaymentsTotal: '200.00',
      amountDue: '35.72',
      cancels: { ...stornorechnung.cancels!, refunded: '0.00', creditPaidOut, creditPayingOut },
    });
    const withdrawn = await textOf(creditStorno('0.00', '0.00'));
    expectWrapped(withdrawn, 'Das Guthaben aus der Rechnung INV-2026-000001 ist storniert. Den noch nicht ausgezahlten Betrag von 35,72 € zahlen wir nicht aus; dafür müssen Sie nichts zahlen.');
    expect(withdrawn).toContain('Stornierte Gutschrift 35,72 €');
    expect(withdrawn).not.toContain('Zu zahlen');
    expect(withdrawn).not.toContain('Fällig am');
    expect(withdrawn).not.toContain('Wir ziehen');

    const paidOut = await textOf(creditStorno('35.72', '0.00'));
    expectWrapped(paidOut, 'Das Guthaben aus der Rechnung INV-2026-000001 ist storniert. Wir ziehen 35,72 € am 04.12.2026 per SEPA-Lastschrift von Ihrem Konto');
    expect(paidOut).toContain('Fällig am 04.12.2026');
    expect(paidOut).not.toContain('nicht ausgezahlten');

    expectWrapped(
      await textOf(creditStorno('20.00', '15.72')),
      'Wir ziehen 20,00 € am 04.12.2026 per SEPA-Lastschrift von Ihrem Konto DE89 XXXX XXXX XXXX XX30 00 ein. Mandatsreferenz: MREF-K1001-01, Gläubiger-ID: DE98ZZZ09999999999. Die bereits zur Auszahlung eingereichten 15,72 € fordern wir zurück, sobald sie bei Ihnen eingegangen sind.',
    );
    const partly = await textOf({ ...creditStorno('10.00', '0.00'), payment: { method: 'transfer', customerIban: null } });
    expectWrapped(partly, 'Bitte überweisen Sie 10,00 € bis zum 04.12.2026');
    expectWrapped(partly, 'Verwendungszweck: CN-2026-000001. Den noch nicht ausgezahlten Betrag von 25,72 € zahlen wir nicht aus; dafür müssen Sie nichts zahlen.');

    const inEnglish = await textOf({ ...english, ...creditStorno('0.00', '15.72'), locale: 'en-GB' });
    expectWrapped(inEnglish, 'The credit of invoice INV-2026-000001 is cancelled. The €20.00 not yet paid out will not be paid; you owe nothing for it.');
    expectWrapped(inEnglish, 'The €15.72 already submitted for payment to you will be reclaimed once it has reached you.');
    expect(inEnglish).toContain('Credit cancelled €35.72');
  });

  it('prints every label in English for an en-GB template', async () => {
    const pages = await extractPages(await renderInvoicePdf(english));
    expect(pages.length).toBeLessThanOrEqual(2);
    const text = pages.join(' ');
    expectAll(text, [
      'Invoice INV-2026-000001',
      'Invoice number INV-2026-000001',
      'Invoice date 03/11/2026',
      'Customer number K-1001',
      'Contract number V-2026-0042',
      'Supply period 01/10/2026 – 31/10/2026',
      'Tariff Mieterstrom Nebenweg',
      'Supply address Nebenweg 7, Wohnung 3, 54321 Beispielhausen',
      'Invoice items',
      'Description Period Quantity Unit price VAT Net',
      'Energy advice 01/10/2026 – 31/10/2026 1,234.567 kWh €0.032400 7.00% €40.00',
      'Net total €220.83',
      'VAT 19.00% on €180.83 €34.36',
      'VAT 7.00% on €40.00 €2.80',
      'Gross total €257.99',
      'Prepayments made -€200.00',
      'including VAT 19.00% on €168.07 €31.93',
      'Amount due €57.99',
      'Due date 17/11/2026',
      'Meters and consumption',
      'MaLo ID Meter number Reading at start Reading at end Consumption Method',
      '12,345.6 kWh 01/10/2026 12,598.1 kWh 01/11/2026 252.500 kWh estimated',
      '– 1EMH0012345678 – – 410.250 kWh calculated',
      'Total consumption 662.750 kWh',
      'Consumption compared with the same period last year',
      'Previous year 268.300 kWh This period 252.500 kWh',
      'Price components (net, § 40 (3) EnWG)',
      'Energy and supply €92.01',
      'Grid fees €52.30',
      'Metering €4.17',
      'Concession fee €11.21',
      'Levies and surcharges €7.39',
      'Electricity tax €13.75',
      'Other €40.00',
      'Your next prepayments',
      'Due date Amount',
      '01/12/2026 €75.00',
      'Fuel mix disclosure (§ 42 EnWG)',
      'Fuel mix 2025',
      'Coal 18.4%',
      'Renewables funded under the EEG 41.0%',
      'CO₂ emissions not stated',
      'Radioactive waste 0.0001 mg/kWh',
      'give notice by 30/11/2026 to end the contract on 31/12/2026 (notice period 4 weeks)',
      'Complaints and dispute resolution',
      'Schlichtungsstelle Energie e. V.',
      'Tax number: 12/345/67890',
      'Register court: Amtsgericht Musterstadt, HRB 12345',
      'Managing directors: Dr. Anna Beispiel, Max Muster',
      'Bank account: Stadtwerke Musterstadt GmbH',
      'Kind regards.',
      `Page 1 of ${pages.length}`,
    ]);
    expectWrapped(text, 'We will collect €57.99 by SEPA direct debit on 17/11/2026 from your account DE89 XXXX XXXX XXXX XX30 00. Mandate reference: MREF-K1001-01, creditor ID: DE98ZZZ09999999999.');
    for (const german of ['Rechnung ', 'Zu zahlen', 'Kundennummer', 'gemessen', 'Seite']) expect(text).not.toContain(german);
  });

  it('says when previous-year data and the fuel mix are missing, and asks for a transfer', async () => {
    const text = await textOf(transfer);
    expectAll(text, [
      'Vorjahr keine Vergleichsdaten Dieser Zeitraum 252,500 kWh',
      'Vorjahr keine Vergleichsdaten Dieser Zeitraum 410,250 kWh',
      'Stromkennzeichnung (§ 42 EnWG) nicht angegeben',
      'Es sind keine weiteren Abschläge vorgesehen.',
      'Zu zahlen 57,99 €',
    ]);
    expectWrapped(text, 'Bitte überweisen Sie 57,99 € bis zum 17.11.2026 auf unser Konto IBAN DE02 1203 0000 0000 2020 51, BIC BYLADEM1001 (Stadtwerke Musterstadt GmbH). Verwendungszweck: INV-2026-000001.');
    expect(text).not.toContain('Lastschrift');
    expect(text).not.toContain('Kündigung bis');
  });

  it('prints a credit with how it is paid out, or that nothing is due', async () => {
    const text = await textOf(credit);
    expectAll(text, [
      'Guthaben 42,01 €',
      'Geleistete Abschlagszahlungen -300,00 €',
      'darin enthaltene USt. 19,00 % auf 252,10 € 47,90 €',
    ]);
    expectWrapped(text, 'Für die Auszahlung von 42,01 € setzen wir uns mit Ihnen in Verbindung.');
    expect(text).not.toContain('Zu zahlen');
    expect(text).not.toContain('Fällig am');

    const paidOut = await textOf({ ...credit, payment: { method: 'transfer', customerIban: 'DE89 3704 0044 0532 0130 00' } });
    expectWrapped(paidOut, 'Wir erstatten Ihnen 42,01 € bis zum 17.11.2026 auf Ihr Konto DE89 XXXX XXXX XXXX XX30 00.');

    const settled = await textOf({ ...credit, prepaymentsTotal: '257.99', amountDue: '0.00' });
    expectAll(settled, ['Zu zahlen 0,00 €', 'Es ist kein Betrag zu zahlen.']);
    expect(settled).not.toContain('überweisen');
  });

  it('renders any amounts and number of lines, and prints the amount due', async () => {
    const cents = fc.bigInt({ min: -10_000_000n, max: 10_000_000n });
    const decimal = (value: bigint) => `${value < 0n ? '-' : ''}${(value < 0n ? -value : value) / 100n}.${String((value < 0n ? -value : value) % 100n).padStart(2, '0')}`;
    await fc.assert(
      fc.asyncProperty(fc.array(cents, { minLength: 0, maxLength: 30 }), cents, fc.constantFrom<InvoiceDocument['locale']>('de-DE', 'en-GB'), async (amounts, due, locale) => {
        const document: InvoiceDocument = {
          ...typical,
          locale,
          lines: amounts.map((amount, i) => line(`Position ${i + 1}`, '1', 'kWh', decimal(amount), '19.00', decimal(amount))),
          amountDue: decimal(due),
        };
        const text = await textOf(document);
        const magnitude = decimal(due < 0n ? -due : due);
        const [integer, fraction] = magnitude.split('.') as [string, string];
        const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, locale === 'de-DE' ? '.' : ',');
        const formatted = locale === 'de-DE' ? `${grouped},${fraction} €` : `€${grouped}.${fraction}`;
        const label = due < 0n ? (locale === 'de-DE' ? 'Guthaben' : 'Credit') : locale === 'de-DE' ? 'Zu zahlen' : 'Amount due';
        expect(text).toContain(`${label} ${formatted}`);
        for (let i = 1; i <= amounts.length; i++) expect(text).toContain(`Position ${i} `);
      }),
      { numRuns: 15 },
    );
  });

  it('sets a number too wide for its column smaller, whole and with its unit, on the baseline of its row', async () => {
    // Whole digits (up to 10) and the decimals a quantity (3), a unit price (6) and a meter's consumption (3) carry.
    const decimal = (decimals: number) =>
      fc.tuple(fc.bigInt({ min: 0n, max: 9_999_999_999n }), fc.bigInt({ min: 0n, max: 10n ** BigInt(decimals) - 1n })).map(([whole, fraction]) => `${whole}.${String(fraction).padStart(decimals, '0')}`);
    const grouped = (value: string, locale: InvoiceDocument['locale']) => {
      const [whole, fraction] = value.split('.') as [string, string];
      const [group, point] = locale === 'de-DE' ? ['.', ','] : [',', '.'];
      return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${point}${fraction}`;
    };
    await fc.assert(
      fc.asyncProperty(decimal(3), decimal(6), decimal(3), fc.constantFrom(typical, english), async (quantity, unitPrice, consumption, base) => {
        const document: InvoiceDocument = {
          ...base,
          lines: [line('Arbeitspreis', quantity, 'kWh', unitPrice, '19.00', '10.00'), line('Grundpreis', '1', 'Monat', '9.900000', '19.00', '9.90')],
          meters: [{ ...base.meters[0]!, consumption }],
        };
        const runs = (await textRunsOf(await renderInvoicePdf(document))).flat().map((run) => ({ ...run, str: run.str.replace(/\u00a0/g, ' ') }));
        const price = grouped(unitPrice, base.locale);
        const expected = [`${grouped(quantity, base.locale)} kWh`, base.locale === 'de-DE' ? `${price} €` : `€${price}`, `${grouped(consumption, base.locale)} kWh`];
        for (const text of expected) expect(runs.map((run) => run.str)).toContain(text);
        // [size, 0, 0, size, x, baseline]: a number set smaller stands on its row's baseline; one that fits keeps the row's size.
        const row = (label: string) => runs.filter((run) => run.transform[5] === runs.find((other) => other.str === label)!.transform[5]);
        expect(row('Arbeitspreis').map((run) => run.str)).toEqual(expect.arrayContaining(expected.slice(0, 2)));
        expect(row('Arbeitspreis').every((run) => run.transform[0]! <= 8)).toBe(true);
        expect(row('Grundpreis').map((run) => run.transform[0])).toEqual(row('Grundpreis').map(() => 8));
      }),
      { numRuns: 12 },
    );
  });
});
