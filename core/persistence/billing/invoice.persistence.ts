import { defineEntity, p } from '@mikro-orm/core';
import { BillRun, BillRunError } from '../../domain/billing/bill-run.js';
import { Invoice, LineItem, type InvoiceTax } from '../../domain/billing/invoice.js';
import { AccountEntity } from '../accounts/account.entities.js';
import { ContractEntity } from '../contracts/contract.persistence.js';
import { CustomerEntity } from '../customers/customer.persistence.js';

export const BillRunEntity = defineEntity({
  class: BillRun,
  tableName: 'bill_runs',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['state'] }],
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
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
    billRunId: () => p.manyToOne(BillRunEntity).mapToPk().fieldName('bill_run_id').primary().deleteRule('cascade'),
    contractId: () => p.manyToOne(ContractEntity).mapToPk().fieldName('contract_id').primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    code: p.string().length(40),
    message: p.text(),
    createdAt: p.datetime(3),
  },
});

/**
 * At most one invoice that is not cancelled covers a day of a contract: the exclusion constraint
 * makes this the database's rule (btree_gist provides `=` on uuids in a GiST index).
 */
export const InvoiceEntity = defineEntity({
  class: Invoice,
  tableName: 'invoices',
  indexes: [
    { properties: ['accountId', 'createdAt', 'id'] },
    { properties: ['billRunId', 'state'] },
    { properties: ['accountId', 'contractId'] },
    { properties: ['accountId', 'customerId'] },
  ],
  uniques: [{ properties: ['accountId', 'number'] }],
  checks: [
    {
      name: 'invoices_one_per_contract_day',
      expression: "EXCLUDE USING gist (contract_id WITH =, daterange(period_start, period_end) WITH &&) WHERE ((((kind)::text = 'invoice'::text) AND ((state)::text <> 'cancelled'::text)))",
    },
  ],
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    kind: p.string().length(16),
    number: p.string().length(20).nullable(),
    contractId: () => p.manyToOne(ContractEntity).mapToPk().fieldName('contract_id'),
    customerId: () => p.manyToOne(CustomerEntity).mapToPk().fieldName('customer_id'),
    billRunId: () => p.manyToOne(BillRunEntity).mapToPk().fieldName('bill_run_id').nullable().deleteRule('set null'),
    periodStart: p.string().columnType('date'),
    periodEnd: p.string().columnType('date'),
    state: p.string().length(16),
    netTotal: p.bigint('string'),
    taxes: p.json<InvoiceTax[]>(),
    grossTotal: p.bigint('string'),
    prepaymentsTotal: p.bigint('string'),
    amountDue: p.bigint('string'),
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
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }, { properties: ['invoiceId', 'position'] }, { properties: ['accountId', 'contractId'] }, { properties: ['priceId'] }],
  properties: {
    id: p.uuid().primary(),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    invoiceId: () => p.manyToOne(InvoiceEntity).mapToPk().fieldName('invoice_id').deleteRule('cascade'),
    contractId: () => p.manyToOne(ContractEntity).mapToPk().fieldName('contract_id'),
    position: p.integer(),
    description: p.string().length(200),
    kind: p.string().length(16),
    quantity: p.bigint('string'),
    quantityScale: p.smallint(),
    unit: p.string().length(8),
    unitPrice: p.bigint('string'),
    netAmount: p.bigint('string'),
    taxRateId: p.uuid(),
    taxRate: p.bigint('string'),
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
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id').primary(),
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
    invoiceId: () => p.oneToOne(InvoiceEntity).mapToPk().fieldName('invoice_id').primary().deleteRule('cascade'),
    accountId: () => p.manyToOne(AccountEntity).mapToPk().fieldName('account_id'),
    content: p.blob(),
    createdAt: p.datetime(3),
  },
});
