import { defineEntity, JsonType, p, type Platform, type TransformContext } from '@mikro-orm/core';
import { BillRun, BillRunError } from '../../domain/billing/bill-run.js';
import { Invoice, LineItem, type InvoiceTax } from '../../domain/billing/invoice.js';
import { ContractEntity } from '../contracts/contract.persistence.js';
import { CustomerEntity } from '../customers/customer.persistence.js';
import { accountKey, tenantForeignKey } from '../tenant-keys.js';

export const BillRunEntity = defineEntity({
  class: BillRun,
  tableName: 'bill_runs',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['state'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    periodStart: p.string().columnType('date'),
    periodEnd: p.string().columnType('date'),
    siteIds: p.json<string[]>().nullable(),
    state: p.string().length(16),
    phase: p.string().length(16),
    failure: p.text().nullable(),
    leaseToken: p.uuid().nullable(),
    leaseUntil: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
});

export const BillRunErrorEntity = defineEntity({
  class: BillRunError,
  tableName: 'bill_run_errors',
  properties: {
    accountId: accountKey,
    billRunId: p.uuid().fieldName('bill_run_id').primary(),
    billRun: tenantForeignKey(() => BillRunEntity, 'bill_run_id', 'cascade'),
    contractId: p.uuid().fieldName('contract_id').primary(),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    code: p.string().length(40),
    message: p.text(),
    createdAt: p.datetime(3),
  },
});

/** An invoice's taxes as stored: the integers as strings in the JSON (bigints have no JSON form). */
interface StoredTax {
  taxRateId: string;
  percentage: string;
  netAmount: string;
  taxAmount: string;
}

/** `invoices.taxes` (jsonb): the domain's bigints, stored as the decimal strings they always were. */
export class InvoiceTaxesType extends JsonType {
  override convertToDatabaseValue(value: unknown, platform: Platform, context?: TransformContext): string | null {
    if (value == null) return null;
    const stored = (value as InvoiceTax[]).map((t): StoredTax => ({ taxRateId: t.taxRateId, percentage: String(t.percentage), netAmount: String(t.netAmount), taxAmount: String(t.taxAmount) }));
    return super.convertToDatabaseValue(stored, platform, context);
  }

  override convertToJSValue(value: unknown, platform: Platform, context?: TransformContext): unknown {
    const stored = super.convertToJSValue(value, platform, context) as StoredTax[] | null;
    if (stored == null) return stored;
    return stored.map((t): InvoiceTax => ({ taxRateId: t.taxRateId, percentage: BigInt(t.percentage), netAmount: BigInt(t.netAmount), taxAmount: BigInt(t.taxAmount) }));
  }
}

/**
 * At most one invoice that is not cancelled covers a day of a contract: the exclusion constraint
 * makes this the database's rule (btree_gist provides `=` on uuids in a GiST index).
 */
export const InvoiceEntity = defineEntity({
  class: Invoice,
  tableName: 'invoices',
  indexes: [
    { properties: ['accountId', 'createdAt', 'id'] },
    { properties: ['accountId', 'billRunId', 'state'] },
    { properties: ['accountId', 'contractId'] },
    { properties: ['accountId', 'customerId'] },
  ],
  uniques: [{ properties: ['accountId', 'number'] }],
  checks: [
    {
      name: 'invoices_one_per_contract_day',
      expression: "EXCLUDE USING gist (account_id WITH =, contract_id WITH =, daterange(period_start, period_end) WITH &&) WHERE ((((kind)::text = 'invoice'::text) AND ((state)::text <> 'cancelled'::text)))",
    },
  ],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    kind: p.string().length(16),
    number: p.string().length(20).nullable(),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    customerId: p.uuid().fieldName('customer_id'),
    customer: tenantForeignKey(() => CustomerEntity, 'customer_id'),
    billRunId: p.uuid().fieldName('bill_run_id').nullable(),
    billRun: tenantForeignKey(() => BillRunEntity, 'bill_run_id'),
    periodStart: p.string().columnType('date'),
    periodEnd: p.string().columnType('date'),
    state: p.string().length(16),
    netTotal: p.bigint(),
    taxes: p.type(InvoiceTaxesType).$type<InvoiceTax[]>(),
    grossTotal: p.bigint(),
    prepaymentsTotal: p.bigint(),
    amountDue: p.bigint(),
    prepaymentIds: p.json<string[]>(),
    issuedAt: p.datetime(3).nullable(),
    dueDate: p.string().columnType('date').nullable(),
    templateId: p.uuid(),
    cancelsInvoiceId: p.uuid().nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export const LineItemEntity = defineEntity({
  class: LineItem,
  tableName: 'line_items',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['accountId', 'invoiceId', 'position'] }, { properties: ['accountId', 'contractId'] }, { properties: ['priceId'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    invoiceId: p.uuid().fieldName('invoice_id'),
    invoice: tenantForeignKey(() => InvoiceEntity, 'invoice_id', 'cascade'),
    contractId: p.uuid().fieldName('contract_id'),
    contract: tenantForeignKey(() => ContractEntity, 'contract_id'),
    position: p.integer(),
    description: p.string().length(200),
    kind: p.string().length(16),
    quantity: p.bigint(),
    quantityScale: p.smallint(),
    unit: p.string().length(8),
    unitPrice: p.bigint(),
    netAmount: p.bigint(),
    taxRateId: p.uuid(),
    taxRate: p.bigint(),
    periodStart: p.string().columnType('date'),
    periodEnd: p.string().columnType('date'),
    priceComponentId: p.uuid(),
    priceId: p.uuid(),
    meterId: p.uuid().nullable(),
    createdAt: p.datetime(3),
  },
});

/** The next number per account, kind and issue year: advanced in the issuing transaction, so numbers have no gaps. */
export class InvoiceCounter {
  accountId!: string;
  kind!: string;
  year!: number;
  lastNumber!: number;
}

export const InvoiceCounterEntity = defineEntity({
  class: InvoiceCounter,
  tableName: 'invoice_counters',
  properties: {
    accountId: accountKey,
    kind: p.string().length(16).primary(),
    year: p.integer().primary(),
    lastNumber: p.integer(),
  },
});

/** The PDF rendered at issue, apart from the invoice row so that lists never load it. */
export class InvoicePdf {
  invoiceId!: string;
  accountId!: string;
  content!: Buffer;
  createdAt!: Date;
}

export const InvoicePdfEntity = defineEntity({
  class: InvoicePdf,
  tableName: 'invoice_pdfs',
  properties: {
    accountId: accountKey,
    invoiceId: p.uuid().fieldName('invoice_id').primary(),
    invoice: tenantForeignKey(() => InvoiceEntity, 'invoice_id', 'cascade'),
    content: p.blob(),
    createdAt: p.datetime(3),
  },
});

/**
 * The e-invoice (CII XML) of each profile written at issue from the same document as the PDF and
 * stored with the invoice, so that later changes of master data never change it.
 */
export class InvoiceEInvoice {
  invoiceId!: string;
  accountId!: string;
  profile!: string;
  xml!: string;
  createdAt!: Date;
}

export const InvoiceEInvoiceEntity = defineEntity({
  class: InvoiceEInvoice,
  tableName: 'invoice_e_invoices',
  properties: {
    accountId: accountKey,
    invoiceId: p.uuid().fieldName('invoice_id').primary(),
    invoice: tenantForeignKey(() => InvoiceEntity, 'invoice_id', 'cascade'),
    profile: p.string().length(16).primary(),
    xml: p.text(),
    createdAt: p.datetime(3),
  },
});

/**
 * A draft whose inputs changed after it was drafted — its site balanced again over its period,
 * measurements of its meters corrected near it, its contract, contract meters, prices or tax rates
 * changed — so that issuing drafts it again first. What changes the data writes it in the same
 * transaction; the draft's removal takes it along.
 */
export class OutdatedDraft {
  accountId!: string;
  invoiceId!: string;
  createdAt!: Date;
}

export const OutdatedDraftEntity = defineEntity({
  class: OutdatedDraft,
  tableName: 'outdated_drafts',
  properties: {
    accountId: accountKey,
    invoiceId: p.uuid().fieldName('invoice_id').primary(),
    invoice: tenantForeignKey(() => InvoiceEntity, 'invoice_id', 'cascade'),
    createdAt: p.datetime(3),
  },
});
