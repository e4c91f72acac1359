import { DEFAULT_DISPUTE_RESOLUTION_TEXT, DEFAULT_DISPUTE_RESOLUTION_TEXT_EN } from '../../domain/accounts/seller-details.js';
import type { ConsumptionMethod, FuelSource, InvoiceCancellationTerms, InvoiceDocument, PriceComponentCategory } from './invoice-pdf-model.js';

type Locale = InvoiceDocument['locale'];
type Unit = InvoiceCancellationTerms['noticePeriod']['unit'];

/** Every text the invoice PDF prints, in each language; amounts and dates arrive formatted. */
export interface Labels {
  decimal: string;
  group: string;
  dateSeparator: string;
  /** A number with its per cent sign or currency symbol; a space between them is a no-break space. */
  percent: (value: string) => string;
  money: (amount: string, symbol: string) => string;
  title: Record<InvoiceDocument['kind'], string>;
  cancels: (number: string, date: string | null) => string;
  customerNumber: string;
  contractNumber: string;
  documentNumber: string;
  issuedAt: string;
  period: string;
  supplyAddress: string;
  product: string;
  dueDate: string;
  continued: string;
  /** Printed atop every page of an XRechnung's visualisation, so the PDF is not taken for a second invoice (§ 14c UStG). */
  eInvoiceVisualisation: string;
  sections: { lines: string; meters: string; comparison: string; priceComponents: string; nextPrepayments: string; fuelMix: string; contract: string; dispute: string };
  lineColumns: [string, string, string, string, string, string];
  netTotal: string;
  tax: (rate: string, base: string) => string;
  grossTotal: string;
  prepayments: string;
  prepaymentTax: (rate: string, base: string) => string;
  amountDue: string;
  credit: string;
  /** What a credit note of a credit takes back, in place of the amount due. */
  creditCancelled: string;
  payment: {
    directDebit: (amount: string, date: string, iban: string | null, mandate: string, creditorId: string) => string;
    transfer: (amount: string, date: string, account: string | null, reference: string) => string;
    sellerAccount: (holder: string, iban: string, bic: string | null) => string;
    creditPaidOut: (amount: string, date: string, iban: string) => string;
    creditContact: (amount: string) => string;
    nothingDue: string;
    cancelled: (number: string) => string;
    /** A direct debit towards the cancelled invoice is out with the bank: it is paid back once it arrives. */
    collectingRefunded: (amount: string) => string;
    /** A credit note of a credit: the credit is withdrawn. */
    creditWithdrawn: (number: string) => string;
    /** The part of the credit never paid out: nobody pays it. */
    creditNotPaidOut: (amount: string) => string;
    /** A refund of the credit is out with the bank: it is asked back once it has arrived. */
    creditRecalled: (amount: string) => string;
  };
  meterColumns: [string, string, string, string, string, string];
  methods: Record<ConsumptionMethod, string>;
  totalConsumption: string;
  previousYear: string;
  currentPeriod: string;
  noComparison: string;
  categories: Record<PriceComponentCategory, string>;
  total: string;
  nextPrepaymentColumns: [string, string];
  noNextPrepayments: string;
  fuelMixYear: (year: number) => string;
  sources: Record<FuelSource, string>;
  co2: string;
  radioactiveWaste: string;
  notStated: string;
  cancellation: (noticeBy: string, endsOn: string, period: string) => string;
  units: Record<Unit, [string, string]>;
  seller: { vatId: string; taxNumber: string; register: string; managingDirectors: string; phone: string; email: string; web: string; bank: string };
  page: (number: number, count: number) => string;
}

export const labels: Record<Locale, Labels> = {
  'de-DE': {
    decimal: ',',
    group: '.',
    dateSeparator: '.',
    percent: (value) => `${value}\u00a0%`,
    money: (amount, symbol) => `${amount}\u00a0${symbol}`,
    title: { invoice: 'Rechnung', credit_note: 'Stornorechnung' },
    cancels: (number, date) => `Storno der Rechnung ${number}${date ? ` vom ${date}` : ''}`,
    customerNumber: 'Kundennummer',
    contractNumber: 'Vertragsnummer',
    documentNumber: 'Rechnungsnummer',
    issuedAt: 'Rechnungsdatum',
    period: 'Leistungszeitraum',
    supplyAddress: 'Lieferstelle',
    product: 'Tarif',
    dueDate: 'Fällig am',
    continued: 'Fortsetzung',
    eInvoiceVisualisation: 'Visualisierung der XRechnung – keine Rechnung im Sinne des § 14 UStG',
    sections: {
      lines: 'Rechnungspositionen',
      meters: 'Zähler und Verbrauch',
      comparison: 'Verbrauchsvergleich mit dem Vorjahreszeitraum',
      priceComponents: 'Preisbestandteile (netto, § 40 Abs. 3 EnWG)',
      nextPrepayments: 'Ihre nächsten Abschläge',
      fuelMix: 'Stromkennzeichnung (§ 42 EnWG)',
      contract: 'Ihr Vertrag',
      dispute: 'Beschwerden und Schlichtung',
    },
    lineColumns: ['Beschreibung', 'Zeitraum', 'Menge', 'Einzelpreis', 'USt.', 'Netto'],
    netTotal: 'Summe netto',
    tax: (rate, base) => `USt. ${rate} auf ${base}`,
    grossTotal: 'Rechnungsbetrag brutto',
    prepayments: 'Geleistete Abschlagszahlungen',
    prepaymentTax: (rate, base) => `darin enthaltene USt. ${rate} auf ${base}`,
    amountDue: 'Zu zahlen',
    credit: 'Guthaben',
    creditCancelled: 'Stornierte Gutschrift',
    payment: {
      directDebit: (amount, date, iban, mandate, creditorId) =>
        `Wir ziehen ${amount} am ${date} per SEPA-Lastschrift${iban ? ` von Ihrem Konto ${iban}` : ''} ein. Mandatsreferenz: ${mandate}, Gläubiger-ID: ${creditorId}.`,
      transfer: (amount, date, account, reference) =>
        `Bitte überweisen Sie ${amount} bis zum ${date}${account ? ` auf unser Konto ${account}` : ''}. Verwendungszweck: ${reference}.`,
      sellerAccount: (holder, iban, bic) => `IBAN ${iban}${bic ? `, BIC ${bic}` : ''} (${holder})`,
      creditPaidOut: (amount, date, iban) => `Wir erstatten Ihnen ${amount} bis zum ${date} auf Ihr Konto ${iban}.`,
      creditContact: (amount) => `Für die Auszahlung von ${amount} setzen wir uns mit Ihnen in Verbindung.`,
      nothingDue: 'Es ist kein Betrag zu zahlen.',
      cancelled: (number) => `Die Rechnung ${number} ist storniert; offene Beträge daraus müssen Sie nicht mehr zahlen.`,
      collectingRefunded: (amount) => `Die bereits eingereichte Lastschrift über ${amount} erstatten wir Ihnen, sobald sie eingegangen ist.`,
      creditWithdrawn: (number) => `Das Guthaben aus der Rechnung ${number} ist storniert.`,
      creditNotPaidOut: (amount) => `Den noch nicht ausgezahlten Betrag von ${amount} zahlen wir nicht aus; dafür müssen Sie nichts zahlen.`,
      creditRecalled: (amount) => `Die bereits zur Auszahlung eingereichten ${amount} fordern wir zurück, sobald sie bei Ihnen eingegangen sind.`,
    },
    meterColumns: ['MaLo-ID', 'Zählernummer', 'Zählerstand alt', 'Zählerstand neu', 'Verbrauch', 'Ermittlung'],
    methods: { measured: 'gemessen', calculated: 'rechnerisch ermittelt', estimated: 'geschätzt' },
    totalConsumption: 'Gesamtverbrauch',
    previousYear: 'Vorjahr',
    currentPeriod: 'Dieser Zeitraum',
    noComparison: 'keine Vergleichsdaten',
    categories: {
      energy: 'Energie und Vertrieb',
      grid_fee: 'Netzentgelte',
      metering: 'Messstellenbetrieb',
      concession_fee: 'Konzessionsabgabe',
      levies: 'Umlagen und Aufschläge',
      electricity_tax: 'Stromsteuer',
      other: 'Sonstiges',
    },
    total: 'Summe',
    nextPrepaymentColumns: ['Fällig am', 'Betrag'],
    noNextPrepayments: 'Es sind keine weiteren Abschläge vorgesehen.',
    fuelMixYear: (year) => `Energieträgermix ${year}`,
    sources: {
      nuclear: 'Kernkraft',
      coal: 'Kohle',
      lignite: 'Braunkohle',
      natural_gas: 'Erdgas',
      other_fossil: 'Sonstige fossile Energieträger',
      renewable_eeg: 'Erneuerbare Energien, gefördert nach dem EEG',
      renewable_other: 'Erneuerbare Energien mit Herkunftsnachweis, nicht gefördert nach dem EEG',
    },
    co2: 'CO₂-Emissionen',
    radioactiveWaste: 'Radioaktiver Abfall',
    notStated: 'nicht angegeben',
    cancellation: (noticeBy, endsOn, period) => `Nächstmögliche Kündigung: Kündigung bis ${noticeBy} zum ${endsOn} (Kündigungsfrist ${period}).`,
    units: { day: ['Tag', 'Tage'], week: ['Woche', 'Wochen'], month: ['Monat', 'Monate'] },
    seller: {
      vatId: 'USt-IdNr.',
      taxNumber: 'Steuernummer',
      register: 'Registergericht',
      managingDirectors: 'Geschäftsführung',
      phone: 'Tel.',
      email: 'E-Mail',
      web: 'Web',
      bank: 'Bankverbindung',
    },
    page: (number, count) => `Seite ${number} von ${count}`,
  },
  'en-GB': {
    decimal: '.',
    group: ',',
    dateSeparator: '/',
    percent: (value) => `${value}%`,
    money: (amount, symbol) => `${symbol}${amount}`,
    title: { invoice: 'Invoice', credit_note: 'Cancellation invoice' },
    cancels: (number, date) => `Cancels invoice ${number}${date ? ` of ${date}` : ''}`,
    customerNumber: 'Customer number',
    contractNumber: 'Contract number',
    documentNumber: 'Invoice number',
    issuedAt: 'Invoice date',
    period: 'Supply period',
    supplyAddress: 'Supply address',
    product: 'Tariff',
    dueDate: 'Due date',
    continued: 'continued',
    eInvoiceVisualisation: 'Visualisation of the XRechnung e-invoice – not an invoice itself',
    sections: {
      lines: 'Invoice items',
      meters: 'Meters and consumption',
      comparison: 'Consumption compared with the same period last year',
      priceComponents: 'Price components (net, § 40 (3) EnWG)',
      nextPrepayments: 'Your next prepayments',
      fuelMix: 'Fuel mix disclosure (§ 42 EnWG)',
      contract: 'Your contract',
      dispute: 'Complaints and dispute resolution',
    },
    lineColumns: ['Description', 'Period', 'Quantity', 'Unit price', 'VAT', 'Net'],
    netTotal: 'Net total',
    tax: (rate, base) => `VAT ${rate} on ${base}`,
    grossTotal: 'Gross total',
    prepayments: 'Prepayments made',
    prepaymentTax: (rate, base) => `including VAT ${rate} on ${base}`,
    amountDue: 'Amount due',
    credit: 'Credit',
    creditCancelled: 'Credit cancelled',
    payment: {
      directDebit: (amount, date, iban, mandate, creditorId) =>
        `We will collect ${amount} by SEPA direct debit on ${date}${iban ? ` from your account ${iban}` : ''}. Mandate reference: ${mandate}, creditor ID: ${creditorId}.`,
      transfer: (amount, date, account, reference) =>
        `Please transfer ${amount} by ${date}${account ? ` to our account ${account}` : ''}. Payment reference: ${reference}.`,
      sellerAccount: (holder, iban, bic) => `IBAN ${iban}${bic ? `, BIC ${bic}` : ''} (${holder})`,
      creditPaidOut: (amount, date, iban) => `We will refund ${amount} to your account ${iban} by ${date}.`,
      creditContact: (amount) => `We will contact you about paying out ${amount}.`,
      nothingDue: 'Nothing is due.',
      cancelled: (number) => `Invoice ${number} is cancelled: nothing still open on it needs to be paid.`,
      collectingRefunded: (amount) => `The direct debit of ${amount} already submitted will be refunded to you once it has arrived.`,
      creditWithdrawn: (number) => `The credit of invoice ${number} is cancelled.`,
      creditNotPaidOut: (amount) => `The ${amount} not yet paid out will not be paid; you owe nothing for it.`,
      creditRecalled: (amount) => `The ${amount} already submitted for payment to you will be reclaimed once it has reached you.`,
    },
    meterColumns: ['MaLo ID', 'Meter number', 'Reading at start', 'Reading at end', 'Consumption', 'Method'],
    methods: { measured: 'measured', calculated: 'calculated', estimated: 'estimated' },
    totalConsumption: 'Total consumption',
    previousYear: 'Previous year',
    currentPeriod: 'This period',
    noComparison: 'no data',
    categories: {
      energy: 'Energy and supply',
      grid_fee: 'Grid fees',
      metering: 'Metering',
      concession_fee: 'Concession fee',
      levies: 'Levies and surcharges',
      electricity_tax: 'Electricity tax',
      other: 'Other',
    },
    total: 'Total',
    nextPrepaymentColumns: ['Due date', 'Amount'],
    noNextPrepayments: 'No further prepayments are planned.',
    fuelMixYear: (year) => `Fuel mix ${year}`,
    sources: {
      nuclear: 'Nuclear',
      coal: 'Coal',
      lignite: 'Lignite',
      natural_gas: 'Natural gas',
      other_fossil: 'Other fossil fuels',
      renewable_eeg: 'Renewables funded under the EEG',
      renewable_other: 'Renewables with guarantees of origin, not funded under the EEG',
    },
    co2: 'CO₂ emissions',
    radioactiveWaste: 'Radioactive waste',
    notStated: 'not stated',
    cancellation: (noticeBy, endsOn, period) => `Next possible termination: give notice by ${noticeBy} to end the contract on ${endsOn} (notice period ${period}).`,
    units: { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'] },
    seller: {
      vatId: 'VAT ID',
      taxNumber: 'Tax number',
      register: 'Register court',
      managingDirectors: 'Managing directors',
      phone: 'Phone',
      email: 'Email',
      web: 'Web',
      bank: 'Bank account',
    },
    page: (number, count) => `Page ${number} of ${count}`,
  },
};

const disputeResolution: Record<Locale, string> = {
  'de-DE': DEFAULT_DISPUTE_RESOLUTION_TEXT,
  'en-GB': DEFAULT_DISPUTE_RESOLUTION_TEXT_EN,
};

/** The statutory complaints and dispute resolution notice for consumers (§40 (2) Nr. 8 EnWG) of a locale, for a seller without its own text. */
export function defaultDisputeResolution(locale: Locale): string {
  return disputeResolution[locale];
}
