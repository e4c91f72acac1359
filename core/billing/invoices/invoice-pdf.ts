import PDFDocument from 'pdfkit';
import type { Address } from '../../domain/addresses/address.js';

export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  locale: 'de-DE' | 'en-GB';
  number: string;
  /** Calendar dates are YYYY-MM-DD; periods are half-open (periodEnd is the first day after). */
  issuedAt: string;
  dueDate: string;
  periodStart: string;
  periodEnd: string;
  currency: string;
  seller: { name: string; address: Address | null };
  customer: { name: string; number: string | null; address: Address | null };
  template: { subject: string | null; introText: string | null; closingText: string | null; footerText: string | null };
  /** For a credit note: the number of the cancelled invoice. */
  cancelsNumber: string | null;
  /** Amounts are exact decimal strings as the API shows them ("1234.567", "0.289500", "19.00"). */
  lines: Array<{ description: string; periodStart: string; periodEnd: string; quantity: string; unit: string; unitPrice: string; taxRate: string; netAmount: string }>;
  netTotal: string;
  taxes: Array<{ percentage: string; netAmount: string; taxAmount: string }>;
  grossTotal: string;
  prepaymentsTotal: string;
  amountDue: string;
}

const locales = {
  'de-DE': {
    decimal: ',', group: '.', dateSeparator: '.',
    percent: (value: string) => `${value} %`,
    money: (amount: string, symbol: string) => `${amount} ${symbol}`,
    invoice: 'Rechnung', credit_note: 'Gutschrift', customerNumber: 'Kundennummer', issuedAt: 'Rechnungsdatum',
    dueDate: 'Fällig am', period: 'Leistungszeitraum', cancels: 'Diese Gutschrift storniert die Rechnung',
    columns: ['Beschreibung', 'Zeitraum', 'Menge', 'Einzelpreis', 'USt.', 'Netto'],
    netTotal: 'Summe netto', tax: 'USt.', taxOn: 'auf', grossTotal: 'Summe brutto', prepayments: 'Abschlagszahlungen',
    amountDue: 'Zu zahlen', credit: 'Guthaben', page: 'Seite', of: 'von',
  },
  'en-GB': {
    decimal: '.', group: ',', dateSeparator: '/',
    percent: (value: string) => `${value}%`,
    money: (amount: string, symbol: string) => `${symbol}${amount}`,
    invoice: 'Invoice', credit_note: 'Credit note', customerNumber: 'Customer number', issuedAt: 'Invoice date',
    dueDate: 'Due date', period: 'Billing period', cancels: 'This credit note cancels invoice',
    columns: ['Description', 'Period', 'Quantity', 'Unit price', 'VAT', 'Net'],
    netTotal: 'Net total', tax: 'VAT', taxOn: 'on', grossTotal: 'Gross total', prepayments: 'Prepayments',
    amountDue: 'Amount due', credit: 'Credit', page: 'Page', of: 'of',
  },
} as const;

type Locale = (typeof locales)[InvoiceDocument['locale']];

const currencySymbols: Record<string, string> = { EUR: '€' };

const margin = 50;
const contentWidth = 595.28 - 2 * margin; // A4 width in points
const footerSpace = 90;
/** Table column widths (sum = contentWidth) and alignments. */
const columns = [
  { width: 150, align: 'left' },
  { width: 100, align: 'left' },
  { width: 70, align: 'right' },
  { width: 65, align: 'right' },
  { width: 40, align: 'right' },
  { width: 70.28, align: 'right' },
] as const;

/** Formats an exact decimal string ("-1234.5670") per locale, keeping every decimal given. */
function formatNumber(value: string, locale: Locale): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new Error(`Not a decimal string: ${value}`);
  const [, sign, integer = '', fraction] = match;
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, locale.group);
  return sign + grouped + (fraction === undefined ? '' : locale.decimal + fraction);
}

/** A calendar date (YYYY-MM-DD), shifted by whole days, formatted per locale. */
function formatDate(value: string, locale: Locale, shiftDays = 0): string {
  const date = new Date(`${value}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + shiftDays);
  const [year, month, day] = date.toISOString().slice(0, 10).split('-');
  return [day, month, year].join(locale.dateSeparator);
}

function addressLines(address: Address | null, sellerCountry: string | undefined, locale: InvoiceDocument['locale']): string[] {
  if (!address) return [];
  const { line1, line2, line3, line4, postCode, locality, country } = address;
  const lines = [line1, line2, line3, line4, `${postCode} ${locality}`].filter((line): line is string => !!line);
  if (country !== sellerCountry) lines.push(new Intl.DisplayNames([locale], { type: 'region' }).of(country) ?? country);
  return lines;
}

/** Renders an invoice or credit note as an A4 PDF; the same document always yields the same bytes. */
export function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const locale = locales[document.locale];
  const title = `${locale[document.kind]} ${document.number}`;
  const issued = new Date(`${document.issuedAt}T00:00:00Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: margin, left: margin, right: margin, bottom: footerSpace },
    bufferPages: true,
    info: { Title: title, Author: document.seller.name, CreationDate: issued, ModDate: issued },
  });
  const chunks: Buffer[] = [];
  const rendered = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const symbol = currencySymbols[document.currency] ?? document.currency;
  const number = (value: string) => formatNumber(value, locale);
  const money = (value: string) => {
    const formatted = number(value);
    return formatted.startsWith('-') ? `-${locale.money(formatted.slice(1), symbol)}` : locale.money(formatted, symbol);
  };
  const period = (start: string, end: string) => `${formatDate(start, locale)} – ${formatDate(end, locale, -1)}`;
  const sellerCountry = document.seller.address?.country;

  const ensureSpace = (height: number, onNewPage?: () => void) => {
    if (doc.y + height <= doc.page.maxY()) return;
    doc.addPage();
    onNewPage?.();
  };
  const row = (cells: string[], bold = false) => {
    const font = () => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const height = Math.max(...cells.map((cell, i) => font().heightOfString(cell, { width: columns[i]!.width - 4 })));
    ensureSpace(height + 4, bold ? undefined : header);
    const y = doc.y;
    let x = margin;
    cells.forEach((cell, i) => {
      const { width, align } = columns[i]!;
      // 4 pt gutter between columns: right of left-aligned cells, left of right-aligned ones.
      font().text(cell, align === 'right' ? x + 4 : x, y, { width: width - 4, align });
      x += width;
    });
    doc.x = margin;
    doc.y = y + height + 4;
  };
  const header = () => {
    row([...locale.columns], true);
    doc.moveTo(margin, doc.y - 2).lineTo(margin + contentWidth, doc.y - 2).lineWidth(0.5).stroke();
  };
  const totalRow = (label: string, amount: string, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    ensureSpace(14);
    const y = doc.y;
    doc.text(label, margin + 200, y, { width: 200 });
    doc.text(amount, margin + 400, y, { width: contentWidth - 400, align: 'right' });
    doc.x = margin;
    doc.y = y + 14;
  };
  const paragraph = (text: string | null, font = 'Helvetica', size = 10) => {
    if (!text) return;
    doc.font(font).fontSize(size).text(text, margin, doc.y, { width: contentWidth }).moveDown();
  };

  doc.font('Helvetica-Bold').fontSize(14).text(document.seller.name, { align: 'right' });
  doc.font('Helvetica').fontSize(9).text(addressLines(document.seller.address, sellerCountry, document.locale).join('\n'), { align: 'right' });
  doc.moveDown(2);
  doc.font('Helvetica-Bold').fontSize(10).text(document.customer.name);
  doc.font('Helvetica');
  if (document.customer.number) doc.text(`${locale.customerNumber}: ${document.customer.number}`);
  doc.text(addressLines(document.customer.address, sellerCountry, document.locale).join('\n')).moveDown(2);

  paragraph(title, 'Helvetica-Bold', 16);
  doc.font('Helvetica').fontSize(10);
  doc.text(`${locale.issuedAt}: ${formatDate(document.issuedAt, locale)}`);
  doc.text(`${locale.dueDate}: ${formatDate(document.dueDate, locale)}`);
  doc.text(`${locale.period}: ${period(document.periodStart, document.periodEnd)}`).moveDown();
  if (document.cancelsNumber) paragraph(`${locale.cancels} ${document.cancelsNumber}.`);
  paragraph(document.template.subject, 'Helvetica-Bold');
  paragraph(document.template.introText);

  header();
  for (const line of document.lines) {
    row([
      line.description,
      period(line.periodStart, line.periodEnd),
      `${number(line.quantity)} ${line.unit}`,
      money(line.unitPrice),
      locale.percent(number(line.taxRate)),
      money(line.netAmount),
    ]);
  }
  doc.moveDown();

  totalRow(locale.netTotal, money(document.netTotal));
  for (const tax of document.taxes) {
    totalRow(`${locale.tax} ${locale.percent(number(tax.percentage))} ${locale.taxOn} ${money(tax.netAmount)}`, money(tax.taxAmount));
  }
  totalRow(locale.grossTotal, money(document.grossTotal), true);
  totalRow(locale.prepayments, money(document.prepaymentsTotal));
  const credit = document.amountDue.startsWith('-');
  totalRow(credit ? locale.credit : locale.amountDue, money(credit ? document.amountDue.slice(1) : document.amountDue), true);
  doc.moveDown();
  paragraph(document.template.closingText);

  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    doc.page.margins.bottom = 0; // writing below the bottom margin would otherwise add a page
    doc.font('Helvetica').fontSize(7);
    const top = doc.page.height - footerSpace + 20;
    if (document.template.footerText) doc.text(document.template.footerText, margin, top, { width: contentWidth - 80 });
    doc.text(`${locale.page} ${page - start + 1} ${locale.of} ${count}`, margin + contentWidth - 80, top, { width: 80, align: 'right' });
  }
  doc.end();
  return rendered;
}
