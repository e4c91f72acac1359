import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { waitForBalance } from '../support/balancing.js';
import { waitForRun } from '../support/billing.js';
import { create } from '../support/fixtures.js';
import type { Api } from '../support/http.js';
import { invoicePdfText } from '../support/pdf.js';

const QH = 15 * 60 * 1000;
/** October in Berlin: 31 days, the last Sunday 25 hours long (DST ends), so 2,980 quarter hours. */
const OCTOBER_2026 = { from: Date.parse('2026-09-30T22:00:00.000Z'), to: Date.parse('2026-10-31T23:00:00.000Z') };
const OCTOBER_2025 = { from: Date.parse('2025-09-30T22:00:00.000Z'), to: Date.parse('2025-10-31T23:00:00.000Z') };

/** Interval energy: `kwh` in every quarter hour of the range. */
const intervals = (meterId: string, kwh: number, range: { from: number; to: number }) =>
  Array.from({ length: (range.to - range.from) / QH }, (_, i) => ({ meterId, timestamp: new Date(range.from + i * QH).toISOString(), value: kwh }));

/** Register readings at every quarter hour of the range, both ends included: `start` kWh, rising by `kwh` per quarter hour. */
const readings = (meterId: string, start: number, kwh: number, range: { from: number; to: number }) =>
  Array.from({ length: (range.to - range.from) / QH + 1 }, (_, i) => ({
    meterId,
    timestamp: new Date(range.from + i * QH).toISOString(),
    value: Math.round((start + i * kwh) * 1000) / 1000,
  }));

/** A seller profile with every field an invoice prints. */
const profile = {
  companyName: 'Stadtwerke Beispiel GmbH',
  address: { line1: 'Energieweg 5', locality: 'Berlin', postCode: '10117', country: 'DE' },
  vatId: 'DE136695976',
  taxNumber: '21/815/08150',
  registerCourt: 'Amtsgericht Charlottenburg',
  registerNumber: 'HRB 98765',
  managingDirectors: ['Erika Mustermann', 'Max Mustermann'],
  contact: { email: 'service@beispiel.test', phone: '+49 30 987654', website: 'www.beispiel.test' },
  bankAccount: { accountHolder: 'Stadtwerke Beispiel GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  sepaCreditorId: 'DE98ZZZ09999999999',
};

const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
const german = (date: string) => date.split('-').reverse().join('.');
/** The 15th of the `n`th month after the month of `date` (n >= 1). */
function fifteenthAfter(date: string, n: number): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  const index = year * 12 + (month - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-15`;
}

/** A sentence that may wrap anywhere: compared without whitespace. */
const squeezed = (text: string) => text.replace(/\s+/g, '');

function expectAll(text: string, expected: readonly string[]): void {
  for (const item of expected) expect(text, item).toContain(item);
}

/** A meter with its MaLo-ID, measuring since before the year-earlier month. */
const meter = (api: Api, siteId: string, fields: Record<string, unknown>) =>
  create(api, '/v1/meters', { siteId, direction: 'consumer', startDate: '2025-09-30T22:00:00.000Z', ...fields });

describe('the invoice PDF assembled from stored data', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ QUEUE_POLL_SECONDS: '0.5', RATE_LIMIT_PER_MINUTE: '100000', BILL_RUN_BATCH_SIZE: '10' });
  });
  afterAll(() => app.close());

  it('prints the seller, customer, contract, meters with readings and the year before, price categories, prepayment VAT, plan, fuel mix, cancellation terms and how to pay', async () => {
    const account = await app.signUp('Beispiel');
    const { api } = account;
    const patched = await api.patch(`/v1/accounts/${account.accountId}`, profile);
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    // Contract 1: a balanced site, a producer and two consumers (a 15-minute register and an interval meter).
    const site = await create(api, '/v1/sites', { name: 'Solarweg', type: 'balanced_accurate', address: { line1: 'Solarweg 1', locality: 'Berlin', postCode: '10115', country: 'DE' } });
    const producer = await meter(api, site.id, { direction: 'producer', identifier: '1PV0000000001', measuring: 'load_profile_accurate' });
    const register = await meter(api, site.id, { identifier: '1ESY1160000001', measuring: 'readings_accurate', marketLocationId: '51238696781' });
    const interval = await meter(api, site.id, { identifier: '1EMH0000000002', measuring: 'load_profile_accurate', marketLocationId: '51238696799' });
    for (const [index, consumer] of [register, interval].entries()) {
      await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: consumer.id, balancing: 'participant', startDate: '2026-01-01', priority: index + 1 });
    }
    await create(api, '/v1/meter-balancing-settings', { siteId: site.id, meterId: producer.id, balancing: 'participant', startDate: '2026-01-01', priority: null });

    // Contract 2: an unbalanced site with one interval meter and no data a year earlier.
    const lindenweg = { line1: 'Lindenweg 9', locality: 'Potsdam', postCode: '14467', country: 'DE' };
    const plain = await create(api, '/v1/sites', { name: 'Lindenweg', type: 'unbalanced_accurate', address: lindenweg });
    const single = await meter(api, plain.id, { identifier: '1EMH0000000003', measuring: 'load_profile_accurate', marketLocationId: '41000000004' });

    // October 2026, then October 2025: register 0.5 kWh per quarter hour (0.4 a year earlier), interval meter 0.3 (0.25).
    // The year-earlier month goes in once October 2026 is balanced: a balancing job whose pending
    // ranges lie a year apart puts days of both into one chunk (chunksOf in
    // core/balancing/balancing.service.ts) and leaves the days after the gap incomplete.
    const ingest = async (...batches: Array<Array<Record<string, unknown>>>) => {
      for (const measurements of batches) {
        const response = await api.post('/v1/measurements', { measurements });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
      }
    };
    await ingest(
      intervals(producer.id, 1.5, OCTOBER_2026),
      readings(register.id, 12345.6, 0.5, OCTOBER_2026),
      intervals(interval.id, 0.3, OCTOBER_2026),
      intervals(single.id, 0.2, OCTOBER_2026),
    );
    await waitForBalance(api, site.id, '2026-10-31T22:45:00.000Z', 90_000);
    await ingest(readings(register.id, 8000, 0.4, OCTOBER_2025), intervals(interval.id, 0.25, OCTOBER_2025));

    // Prices: energy at 19 %, metering at 7 %; the second product has energy only and no fuel mix.
    const vat = await create(api, '/v1/tax-rates', { name: 'VAT', percentage: '19.00', validFrom: '2020-01-01' });
    const reduced = await create(api, '/v1/tax-rates', { name: 'VAT reduced', percentage: '7.00', validFrom: '2020-01-01' });
    const fuelMix = {
      year: 2025,
      sources: [
        { source: 'renewable_eeg', percentage: 40.5 },
        { source: 'renewable_other', percentage: 20 },
        { source: 'nuclear', percentage: 0 },
        { source: 'coal', percentage: 10 },
        { source: 'lignite', percentage: 9.5 },
        { source: 'natural_gas', percentage: 15 },
        { source: 'other_fossil', percentage: 5 },
      ],
      co2GramsPerKwh: 198,
      radioactiveWasteMgPerKwh: 0.0001,
    };
    const product = await create(api, '/v1/electricity-products', { name: 'Mieterstrom Solarweg', fuelMix });
    const group = await create(api, '/v1/price-component-groups', { electricityProductId: product.id, name: 'Mieterstrom' });
    for (const [name, kind, category, taxRateId, amount] of [
      ['Arbeitspreis Mieterstrom', 'local_energy', 'energy', vat.id, '0.250000'],
      ['Arbeitspreis Reststrom', 'grid_energy', 'energy', vat.id, '0.300000'],
      ['Messstellenbetrieb', 'base_fee', 'metering', reduced.id, '10.000000'],
    ] as const) {
      const component = await create(api, '/v1/price-components', { priceComponentGroupId: group.id, name, kind, category, taxRateId });
      await create(api, '/v1/prices', { priceComponentId: component.id, validFrom: '2026-01-01', amount });
    }
    const basic = await create(api, '/v1/electricity-products', { name: 'Strom Basis' });
    const basicGroup = await create(api, '/v1/price-component-groups', { electricityProductId: basic.id, name: 'Strom' });
    const energy = await create(api, '/v1/price-components', { priceComponentGroupId: basicGroup.id, name: 'Arbeitspreis', kind: 'energy', taxRateId: vat.id });
    await create(api, '/v1/prices', { priceComponentId: energy.id, validFrom: '2026-01-01', amount: '0.300000' });

    // Customers: a consumer paying by SEPA direct debit; a second one paying by transfer.
    const erika = await create(api, '/v1/customers', {
      firstName: 'Erika',
      lastName: 'Muster',
      number: 'K-1001',
      address: { line1: 'Hausweg 3', locality: 'Berlin', postCode: '10115', country: 'DE' },
    });
    await create(api, '/v1/payment-methods', {
      customerId: erika.id,
      type: 'sepa_direct_debit',
      accountHolder: 'Erika Muster',
      iban: 'DE02120300000000202051',
      mandateReference: 'MREF-K1001-01',
      mandateSignedAt: '2026-01-01',
      isDefault: true,
    });
    const max = await create(api, '/v1/customers', { firstName: 'Max', lastName: 'Linde', number: 'K-1002', address: lindenweg });
    await create(api, '/v1/payment-methods', { customerId: max.id, type: 'bank_transfer', isDefault: true });

    const contract = await create(api, '/v1/contracts', {
      customerId: erika.id,
      electricityProductId: product.id,
      siteId: site.id,
      dunningBlock: false,
      startDate: '2026-01-01',
      minimumTermEndDate: '2028-01-01',
      noticePeriod: 'P1M',
      number: 'V-2026-0042',
    });
    for (const consumer of [register, interval]) await create(api, '/v1/contract-meters', { contractId: contract.id, siteId: site.id, meterId: consumer.id, startDate: '2026-01-01' });
    const other = await create(api, '/v1/contracts', { customerId: max.id, electricityProductId: basic.id, siteId: plain.id, dunningBlock: false, startDate: '2026-01-01', number: 'V-2026-0043' });
    await create(api, '/v1/contract-meters', { contractId: other.id, siteId: plain.id, meterId: single.id, startDate: '2026-01-01' });

    // Prepayments: two received (deducted), one pending in the past, fourteen planned monthly from next month.
    const today = berlinToday();
    const planned = Array.from({ length: 14 }, (_, i) => fifteenthAfter(today, i + 1));
    const prepayments = await api.post('/v1/payments/batch', {
      payments: [
        { contractId: contract.id, amount: '60.00', type: 'prepayment', state: 'received', dueDate: '2026-09-15' },
        { contractId: contract.id, amount: '60.00', type: 'prepayment', state: 'received', dueDate: '2026-10-15' },
        { contractId: contract.id, amount: '33.00', type: 'prepayment', state: 'pending', dueDate: '2026-10-25' },
        ...planned.map((dueDate) => ({ contractId: contract.id, amount: '75.00', type: 'prepayment', state: 'pending', dueDate })),
      ],
    });
    expect(prepayments.status, JSON.stringify(prepayments.body)).toBe(201);

    // The year-earlier month is balanced too, and October 2026 stays complete.
    expect(await waitForBalance(api, site.id, '2026-10-31T22:45:00.000Z', 90_000)).toMatchObject({ incompleteIntervals: 0, pendingRanges: 0 });
    const run = await create(api, '/v1/bill-runs', { periodStart: '2026-10-01', periodEnd: '2026-11-01' });
    const created = await waitForRun(api, run.id, 'created', 60_000);
    expect(created.errors).toEqual([]);
    expect(created.counts).toMatchObject({ invoices: 2, errors: 0 });
    expect((await api.post(`/v1/bill-runs/${run.id}/complete`)).status).toBe(202);
    await waitForRun(api, run.id, 'completed', 60_000);
    const invoices = (await api.get(`/v1/invoices?billRunId=${run.id}&limit=10`)).body.data as Record<string, any>[];
    const first = invoices.find((i) => i.contractId === contract.id)!;
    const second = invoices.find((i) => i.contractId === other.id)!;
    // 2,980 quarter hours: 1,490 kWh and 894 kWh local energy at 0.25 = 596.00 (19 %), metering 10.00 (7 %).
    expect(first).toMatchObject({
      state: 'issued',
      netTotal: '606.00',
      taxes: [
        { percentage: '19.00', netAmount: '596.00', taxAmount: '113.24' },
        { percentage: '7.00', netAmount: '10.00', taxAmount: '0.70' },
      ],
      grossTotal: '719.94',
      prepaymentsTotal: '120.00',
      amountDue: '599.94',
    });
    const issueDate = first.issuedAt ? new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(first.issuedAt)) : today;

    const text = await invoicePdfText(app.url, account.accessToken, first.id);
    expectAll(text, [
      // Seller.
      'Stadtwerke Beispiel GmbH',
      'Energieweg 5',
      'Tel. +49 30 987654',
      'E-Mail service@beispiel.test',
      'USt-IdNr.: DE136695976',
      'Steuernummer: 21/815/08150',
      'Registergericht: Amtsgericht Charlottenburg, HRB 98765',
      'Geschäftsführung: Erika Mustermann, Max Mustermann',
      'Bankverbindung: Stadtwerke Beispiel GmbH',
      'IBAN DE89 3704 0044 0532 0130 00',
      'BIC COBADEFFXXX',
      // Customer, contract, product, supply address.
      'Erika Muster Hausweg 3 10115 Berlin',
      'Kundennummer K-1001',
      'Vertragsnummer V-2026-0042',
      'Tarif Mieterstrom Solarweg',
      'Lieferstelle Solarweg 1, 10115 Berlin',
      `Rechnungsdatum ${german(issueDate)}`,
      // Meters: MaLo-ID, number, register readings, consumption, method.
      '51238696781 1ESY1160000001 12.345,600 kWh 01.10.2026 13.835,600 kWh 01.11.2026 1.490,000 kWh gemessen',
      '51238696799 1EMH0000000002 – – 894,000 kWh gemessen',
      'Gesamtverbrauch 2.384,000 kWh',
      // The same month a year earlier: 1,192 kWh and 745 kWh.
      'Vorjahr: 01.10.2025 – 31.10.2025 · Dieser Zeitraum: 01.10.2026 – 31.10.2026',
      '1ESY1160000001 Vorjahr 1.192,000 kWh Dieser Zeitraum 1.490,000 kWh',
      '1EMH0000000002 Vorjahr 745,000 kWh Dieser Zeitraum 894,000 kWh',
      // Lines: the base fee's unit in German.
      'Messstellenbetrieb 01.10.2026 – 31.10.2026 1,000000 Monat 10,000000 € 7,00 % 10,00 €',
      // Price categories.
      'Energie und Vertrieb 596,00 €',
      'Messstellenbetrieb 10,00 €',
      'Summe 606,00 €',
      // 120.00 over gross 709.24 (19 %) and 10.70 (7 %): 118.22 and 1.78, VAT 18.88 and 0.12.
      'Geleistete Abschlagszahlungen -120,00 €',
      'darin enthaltene USt. 19,00 % auf 99,34 € 18,88 €',
      'darin enthaltene USt. 7,00 % auf 1,66 € 0,12 €',
      'Zu zahlen 599,94 €',
      // The plan: the next twelve pending prepayments.
      ...planned.slice(0, 12).map((date) => `${german(date)} 75,00 €`),
      // Fuel mix.
      'Erneuerbare Energien, gefördert nach dem EEG 40,5 %',
      'Erneuerbare Energien mit Herkunftsnachweis, nicht gefördert nach dem EEG 20 %',
      'Kernkraft 0 %',
      'Kohle 10 %',
      'Braunkohle 9,5 %',
      'Erdgas 15 %',
      'Sonstige fossile Energieträger 5 %',
      'CO₂-Emissionen 198 g/kWh',
      'Radioaktiver Abfall 0,0001 mg/kWh',
      'Energieträgermix 2025',
      // A consumer within the minimum term: notice by 30.11.2027 (the month from 1 December ends on 31 December) to end after 31.12.2027.
      'Kündigung bis 30.11.2027 zum 31.12.2027 (Kündigungsfrist 1 Monat)',
      'Schlichtungsstelle Energie e.V.',
    ]);
    expect(squeezed(text)).toContain(
      squeezed(`Wir ziehen 599,94 € am ${german(first.dueDate)} per SEPA-Lastschrift von Ihrem Konto DE02 XXXX XXXX XXXX XX20 51 ein. Mandatsreferenz: MREF-K1001-01, Gläubiger-ID: DE98ZZZ09999999999.`),
    );
    for (const absent of [`${german(planned[12]!)} 75,00 €`, '33,00 €', 'keine Vergleichsdaten']) expect(text).not.toContain(absent);

    // Contract 2: no data a year earlier, paid by transfer to the seller's account with the invoice number.
    expect(second).toMatchObject({ netTotal: '178.80', grossTotal: '212.77', amountDue: '212.77' });
    const secondText = await invoicePdfText(app.url, account.accessToken, second.id);
    expectAll(secondText, [
      'Max Linde Lindenweg 9 14467 Potsdam',
      'Vertragsnummer V-2026-0043',
      'Tarif Strom Basis',
      '41000000004 1EMH0000000003 – – 596,000 kWh gemessen',
      'Vorjahr keine Vergleichsdaten Dieser Zeitraum 596,000 kWh',
      'Energie und Vertrieb 178,80 €',
      'Es sind keine weiteren Abschläge vorgesehen.',
    ]);
    expect(squeezed(secondText)).toContain(
      squeezed(`Bitte überweisen Sie 212,77 € bis zum ${german(second.dueDate)} auf unser Konto IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX (Stadtwerke Beispiel GmbH). Verwendungszweck: ${second.number}.`),
    );
    // The supply address is the customer's own; the business terms give no notice period.
    for (const absent of ['Lieferstelle', 'Mandatsreferenz', 'Nächstmögliche Kündigung']) expect(secondText).not.toContain(absent);

    // Cancelling the first invoice: the Stornorechnung names it, with the same meters and negated amounts.
    const cancelled = await api.post(`/v1/invoices/${first.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);
    const creditText = await invoicePdfText(app.url, account.accessToken, cancelled.body.id);
    expectAll(creditText, [
      `Stornorechnung ${cancelled.body.number}`,
      `Storno der Rechnung ${first.number} vom ${german(issueDate)}`,
      'Rechnungsbetrag brutto -719,94 €',
      'Geleistete Abschlagszahlungen 120,00 €',
      'darin enthaltene USt. 19,00 % auf -99,34 € -18,88 €',
      '51238696781 1ESY1160000001 12.345,600 kWh 01.10.2026 13.835,600 kWh 01.11.2026 1.490,000 kWh gemessen',
    ]);
    // Nothing was paid towards it, so nothing is paid back.
    expect(squeezed(creditText)).toContain(squeezed(`Die Rechnung ${first.number} ist storniert; offene Beträge daraus müssen Sie nicht mehr zahlen.`));
    expect(creditText).not.toContain('erstatten');
  }, 240_000);
});
