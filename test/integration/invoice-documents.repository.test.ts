import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MikroInvoiceRepository } from '../../core/persistence/billing/invoice.repositories.js';
import { useRepositoryDatabase } from '../support/repository-database.js';

/**
 * Issued documents are stored in statements of about a megabyte of parameters each: every
 * document once, with its bytes or text exactly, in the statements the sizes call for, and a
 * document stored again (a resumed phase) keeps what was stored first.
 */
describe('MikroInvoiceRepository storing PDFs and e-invoices on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  let accountId: string;
  let invoiceIds: string[];

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
    const site = await db.site(accountId);
    invoiceIds = [];
    for (let i = 0; i < 5; i++) invoiceIds.push(await db.invoice(accountId, site.id, '2026-10-01', '2026-11-01', 'issued'));
    // Counts the insert statements per table.
    await db.sql('create table inserts (tbl text primary key, n int not null)');
    await db.sql(`create function count_insert() returns trigger language plpgsql as $$
      begin insert into inserts values (tg_table_name, 1) on conflict (tbl) do update set n = inserts.n + 1; return null; end $$`);
    for (const table of ['invoice_pdfs', 'invoice_e_invoices']) await db.sql(`create trigger count_insert after insert on ${table} for each statement execute function count_insert()`);
  });

  const inserts = async (table: string) => (await db.sql<{ n: number }>('select n from inserts where tbl = $1', [table]))[0]?.n ?? 0;
  const repository = () => new MikroInvoiceRepository(db.orm.em);

  it('stores PDFs of 400 kB two to a statement, each byte as given, and keeps the first of a PDF stored twice', async () => {
    const pdfs = invoiceIds.map((invoiceId) => ({ invoiceId, content: randomBytes(400_000) }));
    await db.inTransaction(() => repository().savePdfs(accountId, pdfs));
    expect(await inserts('invoice_pdfs')).toBe(3);
    for (const { invoiceId, content } of pdfs) expect((await db.inContext(() => repository().pdfOf(accountId, invoiceId)))!.equals(content)).toBe(true);

    await db.inTransaction(() => repository().savePdfs(accountId, [{ invoiceId: invoiceIds[0]!, content: randomBytes(10) }]));
    expect((await db.inContext(() => repository().pdfOf(accountId, invoiceIds[0]!)))!.equals(pdfs[0]!.content)).toBe(true);
    expect((await db.sql<{ n: number }>('select count(*)::int as n from invoice_pdfs'))[0]!.n).toBe(5);
  });

  it('stores e-invoices of both profiles three to a statement, each text as given', async () => {
    const xml = (invoiceId: string, profile: string) => `<?xml version="1.0" encoding="UTF-8"?><x p="${profile}">${invoiceId} Müller & Söhne €${'ä'.repeat(300_000)}</x>`;
    const eInvoices = invoiceIds.flatMap((invoiceId) => (['xrechnung', 'en16931'] as const).map((profile) => ({ invoiceId, profile, xml: xml(invoiceId, profile) })));
    await db.inTransaction(() => repository().saveEInvoices(accountId, eInvoices));
    // Ten texts of some 300,000 characters: 3 + 3 + 3 + 1.
    expect(await inserts('invoice_e_invoices')).toBe(4);
    for (const { invoiceId, profile, xml: text } of eInvoices) expect(await db.inContext(() => repository().eInvoiceOf(accountId, invoiceId, profile))).toBe(text);
  });
});
