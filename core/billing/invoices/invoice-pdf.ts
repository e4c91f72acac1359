import { addressLines, Format, negate, shiftYears, signOf, sumDecimals } from './invoice-pdf-format.js';
import { labels, type Labels } from './invoice-pdf-labels.js';
import { colors, contentWidth, fuelColors, headingHeight, mm, page, PdfLayout, type Column, type Row } from './invoice-pdf-layout.js';
import { FUEL_SOURCES, type InvoiceDocument } from './invoice-pdf-model.js';
import { embedFacturX, visualisationMarker, type InvoicePdfEInvoice } from './invoice-pdf-e-invoice.js';
import { amountDueLabel, asksPayment, paymentText } from './invoice-pdf-payment.js';

export { defaultDisputeResolution } from './invoice-pdf-labels.js';
export * from './invoice-pdf-model.js';
export type { InvoicePdfEInvoice } from './invoice-pdf-e-invoice.js';

/** What every section draws with. */
interface Context {
  layout: PdfLayout;
  document: InvoiceDocument;
  l: Labels;
  f: Format;
}

/** DIN 5008 form B: the address field's left edge (plus its 5 mm inner margin) and the information block. */
const addressField = { x: mm(25), top: mm(45), recipientTop: mm(62.7), width: mm(80) };
const infoBlock = { x: mm(125), top: mm(50), labelWidth: 80 };

/**
 * Renders an invoice or cancellation invoice as an A4 PDF with PDF/A-3b structure; the same document
 * (and e-invoice) always yields the same bytes.
 */
export function renderInvoicePdf(document: InvoiceDocument, eInvoice?: InvoicePdfEInvoice): Promise<Buffer> {
  return layOutInvoice(document, eInvoice).pdf;
}

/** An invoice's layout, its PDF's bytes to come (renderInvoicePdf answers the bytes alone). */
export function layOutInvoice(document: InvoiceDocument, eInvoice?: InvoicePdfEInvoice): { layout: PdfLayout; pdf: Promise<Buffer> } {
  const l = labels[document.locale];
  const f = new Format(l, document.currency);
  const title = `${l.title[document.kind]} ${document.number}`;
  const visualisation = eInvoice?.format === 'xrechnung';
  const layout = new PdfLayout(
    {
      title,
      author: document.seller.name,
      subject: `${l.period} ${f.period(document.periodStart, document.periodEnd)}`,
      createdAt: new Date(`${document.issuedAt}T00:00:00Z`),
      lang: document.locale,
    },
    (layout) => {
      if (visualisation) visualisationMarker(layout, l);
      const customer = document.customer.number ? ` · ${l.customerNumber} ${document.customer.number}` : '';
      layout.textAt(`${document.seller.name} · ${title} · ${f.date(document.issuedAt)}${customer}`, page.left, page.top, contentWidth, { size: 7.5, color: colors.muted, tag: 'Artifact' });
      layout.rule(page.left, page.right, page.top + 12);
      return page.top + 20;
    },
  );
  const context: Context = { layout, document, l, f };
  if (eInvoice?.format === 'facturx') embedFacturX(layout, eInvoice.xml, new Date(`${document.issuedAt}T00:00:00Z`));
  layout.bottom = footerTop(context);
  if (visualisation) visualisationMarker(layout, l);
  letterhead(context);
  titleAndSummary(context);
  lineItems(context);
  totals(context);
  layout.paragraph(document.template.closingText, {}, 4);
  meters(context);
  if (document.kind === 'invoice') {
    comparison(context);
    priceComponentsAndPrepayments(context);
    fuelMix(context);
    contract(context);
  }
  layout.heading(l.sections.dispute, layout.heightOf(document.disputeResolution, contentWidth, { size: 7 }));
  layout.paragraph(document.disputeResolution, { size: 7 }, 4);
  return { layout, pdf: layout.finish((layout, number, count) => footer(context, number, count)) };
}

function letterhead({ layout, document, l, f }: Context): void {
  const { seller, customer } = document;
  const sellerCountry = seller.address?.country ?? 'DE';
  layout.textAt(seller.name, page.left, page.top + 4, mm(95), { size: 14, bold: true, color: colors.accent });
  const contact = [
    seller.contact.phone && `${l.seller.phone} ${seller.contact.phone}`,
    seller.contact.email && `${l.seller.email} ${seller.contact.email}`,
    seller.contact.website && `${l.seller.web} ${seller.contact.website}`,
  ].filter((line): line is string => !!line);
  const sellerLines = [...addressLines(seller.address, sellerCountry, document.locale), ...contact].join('\n');
  layout.textAt(sellerLines, infoBlock.x, page.top + 4, page.right - infoBlock.x, { size: 7.5, color: colors.muted, align: 'right' });

  // The address field: the seller's return address, then the recipient.
  const returnAddress = [seller.name, ...addressLines(seller.address, sellerCountry, document.locale)].join(' · ');
  const returnHeight = layout.heightOf(returnAddress, addressField.width, { size: 6.5 });
  layout.textAt(returnAddress, addressField.x, addressField.recipientTop - returnHeight - 6, addressField.width, { size: 6.5, color: colors.muted });
  layout.rule(addressField.x, addressField.x + addressField.width, addressField.recipientTop - 4);
  const recipient = [customer.name, ...addressLines(customer.address, sellerCountry, document.locale)].join('\n');
  const addressBottom = addressField.recipientTop + layout.textAt(recipient, addressField.x, addressField.recipientTop, addressField.width, { size: 9.5 });

  // The information block beside it.
  const facts: Array<[string, string | null]> = [
    [l.documentNumber, document.number],
    [l.issuedAt, f.date(document.issuedAt)],
    [l.customerNumber, customer.number],
    [l.contractNumber, document.contractNumber],
    [l.period, f.period(document.periodStart, document.periodEnd)],
    [l.product, document.productName],
    [l.supplyAddress, document.supplyAddress && addressLines(document.supplyAddress, sellerCountry, document.locale).join(', ')],
  ];
  const valueX = infoBlock.x + infoBlock.labelWidth;
  let y = infoBlock.top;
  for (const [label, value] of facts) {
    if (!value) continue;
    layout.textAt(label, infoBlock.x, y, infoBlock.labelWidth - 4, { size: 8, color: colors.muted });
    y += Math.max(layout.textAt(value, valueX, y, page.right - valueX, { size: 8 }), 10) + 1.5;
  }
  layout.y = Math.max(mm(98.5), addressBottom + 14, y + 14);
}

/** The title, the template's greeting and a box with the amount due and how it is settled. */
function titleAndSummary({ layout, document, l, f }: Context): void {
  layout.y += layout.textAt(`${l.title[document.kind]} ${document.number}`, page.left, layout.y, contentWidth, { size: 15, bold: true, color: colors.accent, tag: 'H1' }) + 2;
  if (document.cancels) {
    const { number, issuedAt } = document.cancels;
    layout.paragraph(l.cancels(number, issuedAt && f.date(issuedAt)), { size: 9, bold: true }, 4);
  }
  layout.y += 4;
  layout.paragraph(document.template.subject, { size: 9, bold: true }, 3);
  layout.paragraph(document.template.introText, {}, 8);

  const sign = signOf(document.amountDue);
  const amountWidth = 150;
  const textX = page.left + amountWidth + 16;
  const text = paymentText(document, l, f);
  const padding = 8;
  const height = Math.max(58, layout.heightOf(text, page.right - padding - textX, { size: 8.5 }) + 2 * padding);
  layout.ensure(height);
  const top = layout.y;
  layout.box(page.left, top, contentWidth, height, colors.shade);
  layout.box(page.left, top, 3, height, colors.accent);
  layout.textAt(amountDueLabel(document, l), page.left + 12, top + padding, amountWidth, { size: 8.5, color: colors.muted });
  layout.textAt(f.money(sign < 0 ? negate(document.amountDue) : document.amountDue), page.left + 12, top + padding + 11, amountWidth, { size: 16, bold: true, color: colors.accent });
  if (asksPayment(document)) layout.textAt(`${l.dueDate} ${f.date(document.dueDate)}`, page.left + 12, top + padding + 31, amountWidth, { size: 8.5, color: colors.muted });
  layout.textAt(text, textX, top + padding, page.right - padding - textX, { size: 8.5 });
  layout.y = top + height + 10;
}

const lineColumns: Column[] = [
  { width: 146 },
  { width: 100 },
  { width: 64, align: 'right' },
  { width: 58, align: 'right' },
  { width: 36, align: 'right' },
  { width: contentWidth - 146 - 100 - 64 - 58 - 36, align: 'right' },
];

function lineItems({ layout, document, l, f }: Context): void {
  layout.heading(l.sections.lines);
  const rows = document.lines.map((line) => ({
    cells: [line.description, f.period(line.periodStart, line.periodEnd), f.quantity(line.quantity, line.unit), f.money(line.unitPrice), f.percent(line.taxRate), f.money(line.netAmount)],
  }));
  layout.table(layout.measureTable(lineColumns, rows, { header: l.lineColumns }));
}

/** Net, VAT per rate, gross, the prepayments with the VAT they contain, and the amount due or credit. */
function totals({ layout, document, l, f }: Context): void {
  const amountWidth = 84;
  const labelX = page.left + 150;
  const labelWidth = page.right - amountWidth - labelX;
  const row = (label: string, amount: string, style: { size?: number; bold?: boolean; color?: string } = {}, gap = 3) => {
    const height = Math.max(layout.heightOf(label, labelWidth, style), layout.heightOf(amount, amountWidth, { ...style, align: 'right' }));
    layout.ensure(height);
    layout.textAt(label, labelX, layout.y, labelWidth, style);
    layout.textAt(amount, page.right - amountWidth, layout.y, amountWidth, { ...style, align: 'right' });
    layout.y += height + gap;
  };
  layout.ensure(120);
  layout.rule(labelX, page.right, layout.y);
  layout.y += 4;
  row(l.netTotal, f.money(document.netTotal));
  for (const tax of document.taxes) row(l.tax(f.percent(tax.percentage), f.money(tax.netAmount)), f.money(tax.taxAmount));
  row(l.grossTotal, f.money(document.grossTotal), { bold: true });
  row(l.prepayments, f.money(negate(document.prepaymentsTotal)));
  for (const tax of document.prepaymentTaxes) {
    row(l.prepaymentTax(f.percent(tax.percentage), f.money(tax.netAmount)), f.money(tax.taxAmount), { size: 7.5, color: colors.muted });
  }
  layout.rule(labelX, page.right, layout.y);
  layout.y += 4;
  const credit = signOf(document.amountDue) < 0;
  row(amountDueLabel(document, l), f.money(credit ? negate(document.amountDue) : document.amountDue), { size: 10, bold: true, color: colors.accent }, 10);
}

const meterColumns: Column[] = [
  { width: 72 },
  { width: 84 },
  { width: 82, align: 'right' },
  { width: 82, align: 'right' },
  { width: 70, align: 'right' },
  { width: contentWidth - 72 - 84 - 82 - 82 - 70 },
];

function meterName(meter: InvoiceDocument['meters'][number]): string {
  return meter.label ? `${meter.meterNumber}\n${meter.label}` : meter.meterNumber;
}

function meters({ layout, document, l, f }: Context): void {
  if (document.meters.length === 0) return;
  const reading = (value: string, date: string) => `${f.quantity(value, 'kWh')}\n${f.date(date)}`;
  const rows: Row[] = document.meters.map((meter) => ({
    cells: [
      meter.marketLocationId ?? '–',
      meterName(meter),
      meter.readings ? reading(meter.readings.start, meter.readings.startDate) : '–',
      meter.readings ? reading(meter.readings.end, meter.readings.endDate) : '–',
      f.quantity(meter.consumption, 'kWh'),
      l.methods[meter.method],
    ],
  }));
  if (document.meters.length > 1) {
    rows.push({ cells: [l.totalConsumption, f.quantity(sumDecimals(document.meters.map((meter) => meter.consumption)), 'kWh'), ''], span: 4, bold: true });
  }
  const table = layout.measureTable(meterColumns, rows, { header: l.meterColumns });
  layout.heading(l.sections.meters, table.height);
  layout.table(table);
}

/** Per meter, this period's consumption beside the same period a year earlier, in numbers and bars. */
function comparison({ layout, document, l, f }: Context): void {
  if (document.meters.length === 0) return;
  const previousStart = shiftYears(document.periodStart, -1);
  const previousEnd = shiftYears(document.periodEnd, -1);
  const nameWidth = 120;
  const labelWidth = 62;
  const valueWidth = 72;
  const barX = page.left + nameWidth + labelWidth;
  const barWidth = page.right - valueWidth - barX - 6;
  const values = document.meters.flatMap((meter) => [meter.consumption, meter.previousYearConsumption ?? '0']).map(Number);
  const scale = Math.max(...values, 0);
  const barRow = (y: number, label: string, value: string | null, color: string) => {
    layout.textAt(label, page.left + nameWidth, y, labelWidth - 4, { size: 7.5, color: colors.muted });
    if (value === null) {
      layout.textAt(l.noComparison, barX, y, barWidth, { size: 7.5, color: colors.muted });
      return;
    }
    const length = scale > 0 ? Math.max(0, (Number(value) / scale) * barWidth) : 0;
    layout.box(barX, y + 1, length, 7, color);
    layout.textAt(f.quantity(value, 'kWh'), page.right - valueWidth, y, valueWidth, { size: 7.5, align: 'right' });
  };
  const periods = `${l.previousYear}: ${f.period(previousStart, previousEnd)} · ${l.currentPeriod}: ${f.period(document.periodStart, document.periodEnd)}`;
  layout.heading(l.sections.comparison, 12 + 24);
  layout.paragraph(periods, { size: 7.5, color: colors.muted }, 4);
  for (const meter of document.meters) {
    const height = Math.max(layout.heightOf(meterName(meter), nameWidth - 6, { size: 8 }), 22) + 4;
    layout.ensure(height);
    const top = layout.y;
    layout.textAt(meterName(meter), page.left, top, nameWidth - 6, { size: 8 });
    barRow(top, l.previousYear, meter.previousYearConsumption, colors.rule);
    barRow(top + 11, l.currentPeriod, meter.consumption, colors.accent);
    layout.y = top + height;
  }
  layout.y += 2;
}

/** The §40 (3) EnWG price breakdown beside the prepayment plan. */
function priceComponentsAndPrepayments({ layout, document, l, f }: Context): void {
  const gutter = 24;
  const leftColumns: Column[] = [{ width: 170 }, { width: 80, align: 'right' }];
  const rightX = page.left + 250 + gutter;
  const rightColumns: Column[] = [{ width: 90 }, { width: page.right - rightX - 90, align: 'right' }];
  const components: Row[] = document.priceComponents.map((component) => ({ cells: [l.categories[component.category], f.money(component.netAmount)] }));
  if (components.length > 0) {
    components.push({ cells: [l.total, f.money(sumDecimals(document.priceComponents.map((component) => component.netAmount)))], bold: true });
  }
  const plan: Row[] = document.nextPrepayments.map((prepayment) => ({ cells: [f.date(prepayment.dueDate), f.money(prepayment.amount)] }));
  const block = (x: number, width: number, heading: string, columns: Column[], rows: Row[], header: string[] | null, empty: string) => {
    const table = rows.length > 0 ? layout.measureTable(columns, rows, { header }) : null;
    return {
      height: headingHeight + (table ? table.height : layout.heightOf(empty, width, { size: 8 }) + 4),
      draw: (y: number) => {
        layout.y = y;
        layout.heading(heading, 0, x, width);
        if (table) layout.table(table, x);
        else layout.paragraph(empty, { size: 8, color: colors.muted }, 4, x, width);
        return layout.y;
      },
    };
  };
  layout.sideBySide([
    block(page.left, 250, l.sections.priceComponents, leftColumns, components, null, l.notStated),
    block(rightX, page.right - rightX, l.sections.nextPrepayments, rightColumns, plan, l.nextPrepaymentColumns, l.noNextPrepayments),
  ]);
  layout.y += 2;
}

/** The fuel mix as a table with a colour legend beside one stacked bar, plus CO2 and radioactive waste. */
function fuelMix({ layout, document, l, f }: Context): void {
  const mix = document.fuelMix;
  if (!mix) {
    layout.heading(l.sections.fuelMix, 12);
    layout.paragraph(l.notStated, { size: 8, color: colors.muted }, 4);
    return;
  }
  const shares = new Map(mix.sources.map((entry) => [entry.source, entry.percentage]));
  const columns: Column[] = [{ width: 12 }, { width: 210 }, { width: 68, align: 'right' }];
  const rows: Row[] = FUEL_SOURCES.map((source) => ({ cells: ['', l.sources[source], f.percent(shares.get(source) ?? '0')], marker: fuelColors[source] }));
  rows.push(
    { cells: ['', l.co2, mix.co2 === null ? l.notStated : f.quantity(mix.co2, 'g/kWh')] },
    { cells: ['', l.radioactiveWaste, mix.radioactiveWaste === null ? l.notStated : f.quantity(mix.radioactiveWaste, 'mg/kWh')] },
  );
  const barX = page.left + 310;
  const barWidth = page.right - barX;
  const table = layout.measureTable(columns, rows, { header: null });
  layout.heading(l.sections.fuelMix, table.height);
  layout.sideBySide([
    {
      height: table.height,
      draw: (y) => {
        layout.y = y;
        layout.table(table);
        return layout.y;
      },
    },
    {
      height: 40,
      draw: (y) => {
        layout.textAt(l.fuelMixYear(mix.year), barX, y, barWidth, { size: 8, bold: true });
        let x = barX;
        for (const source of FUEL_SOURCES) {
          const width = (Number(shares.get(source) ?? '0') / 100) * barWidth;
          layout.box(x, y + 14, width, 16, fuelColors[source]);
          x += width;
        }
        return y + 40;
      },
    },
  ]);
}

function contract({ layout, document, l, f }: Context): void {
  const terms = document.cancellation;
  if (!terms) return;
  const { value, unit } = terms.noticePeriod;
  const period = `${value} ${l.units[unit][value === 1 ? 0 : 1]}`;
  const text = l.cancellation(f.date(terms.noticeBy), f.date(terms.endsOn, -1), period);
  layout.heading(l.sections.contract, layout.heightOf(text, contentWidth, { size: 8 }));
  layout.paragraph(text, { size: 8 }, 4);
}

const footerStyle = { size: 6.5, color: colors.muted, tag: 'Artifact' } as const;

/** The footer's texts: the template's footer text across the page, then the seller's legal data in three columns. */
function footerBlocks({ document, l, f }: Context): Array<{ text: string; x: number; width: number; below: boolean }> {
  const { seller } = document;
  const columns = [
    [seller.name, ...addressLines(seller.address, seller.address?.country, document.locale)],
    [
      seller.register && `${l.seller.register}: ${seller.register.court}, ${seller.register.number}`,
      seller.managingDirectors.length > 0 && `${l.seller.managingDirectors}: ${seller.managingDirectors.join(', ')}`,
      seller.vatId && `${l.seller.vatId}: ${seller.vatId}`,
      seller.taxNumber && `${l.seller.taxNumber}: ${seller.taxNumber}`,
    ],
    seller.bankAccount ? [`${l.seller.bank}: ${seller.bankAccount.holder}`, `IBAN ${f.iban(seller.bankAccount.iban)}`, seller.bankAccount.bic && `BIC ${seller.bankAccount.bic}`] : [],
  ];
  const widths = [120, 180, contentWidth - 300];
  const lefts = [0, 120, 300];
  return [
    { text: document.template.footerText ?? '', x: page.left, width: contentWidth, below: false },
    ...columns.map((lines, i) => ({ text: lines.filter((line): line is string => !!line).join('\n'), x: page.left + lefts[i]!, width: widths[i]! - 8, below: true })),
  ];
}

/** Where the footer starts: high enough for all of its text above a 10 mm bottom margin, and at most 22 mm from the bottom. */
function footerTop(context: Context): number {
  const heights = footerBlocks(context).map((block) => context.layout.heightOf(block.text, block.width, footerStyle));
  const [footerText = 0, ...columns] = heights;
  return Math.min(page.height - mm(22), page.height - mm(10) - 6 - footerText - Math.max(...columns));
}

/** The page number above the footer rule, then the footer's texts. */
function footer(context: Context, number: number, count: number): void {
  const { layout, l } = context;
  const top = layout.bottom;
  layout.textAt(l.page(number, count), page.left, top - 9, contentWidth, { ...footerStyle, size: 7, align: 'right' });
  layout.rule(page.left, page.right, top);
  let y = top + 4;
  for (const block of footerBlocks(context)) {
    const height = layout.textAt(block.text, block.x, y, block.width, footerStyle);
    if (!block.below) y += height + 2;
  }
}
