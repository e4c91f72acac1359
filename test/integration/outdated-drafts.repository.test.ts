import { beforeAll, describe, expect, it } from 'vitest';
import { MikroBalancingRepository } from '../../core/persistence/balancing/balance.persistence.js';
import { MikroOutdatedDraftRepository } from '../../core/persistence/billing/outdated-draft.repository.js';
import { startOfDay } from '../../core/domain/time/calendar-date.js';
import { gate, useRepositoryDatabase } from '../support/repository-database.js';

const QH = 900_000;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'UTC'];

/**
 * Which drafts a balancing marks outdated: those of contracts on the site whose period, as local
 * dates of the account's zone, shares an instant with a span balanced again — across zones and the
 * end of summer time — and not invoices already issued. And the hold a bill run's batch takes on
 * its sites keeps the balancing of a site out until the batch commits.
 */
describe('MikroOutdatedDraftRepository on PostgreSQL', () => {
  const db = useRepositoryDatabase();
  let accountId: string;

  beforeAll(async () => {
    accountId = (await db.account()).accountId;
  });

  const invoiceOn = (siteId: string, periodStart: string, periodEnd: string, state?: 'draft' | 'issued') => db.invoice(accountId, siteId, periodStart, periodEnd, state);

  const marked = async (ids: readonly string[]) =>
    (await db.sql<{ invoice_id: string }>('select invoice_id from outdated_drafts where account_id = $1 and invoice_id = any($2::uuid[])', [accountId, ids])).map((r) => r.invoice_id).sort();

  it.each(ZONES)('marks the drafts whose local period shares an instant with a span, in %s', async (zone) => {
    const site = await db.site(accountId);
    // October 24 to 26 (summer time ends on the 25th in Europe), and its neighbours.
    const inside = await invoiceOn(site.id, '2026-10-24', '2026-10-27');
    const before = await invoiceOn(site.id, '2026-10-20', '2026-10-24');
    const after = await invoiceOn(site.id, '2026-10-27', '2026-10-30');
    const issued = await invoiceOn(site.id, '2026-10-24', '2026-10-27', 'issued');
    const elsewhere = await invoiceOn((await db.site(accountId)).id, '2026-10-24', '2026-10-27');
    const start = startOfDay('2026-10-24', zone).getTime();
    const end = startOfDay('2026-10-27', zone).getTime();
    const all = [inside, before, after, issued, elsewhere];
    const mark = (spans: { start: number; end: number }[]) => db.inTransaction(() => new MikroOutdatedDraftRepository(db.orm.em).markOfSite(accountId, site.id, spans, zone));

    // Spans that touch the period's bounds only: the quarter hour before its first and the one from its end.
    await mark([{ start: start - QH, end: start }, { start: end, end: end + QH }]);
    expect(await marked(all)).toEqual([before, after].sort());
    await db.sql('delete from outdated_drafts where account_id = $1', [accountId]);
    // The period's first and last quarter hours.
    await mark([{ start, end: start + QH }]);
    expect(await marked(all)).toEqual([inside]);
    await db.sql('delete from outdated_drafts where account_id = $1', [accountId]);
    await mark([{ start: end - QH, end }]);
    expect(await marked(all)).toEqual([inside]);
    // Marking again keeps one mark per draft.
    await mark([{ start, end }]);
    expect(await marked(all)).toEqual([inside]);
    await db.sql('delete from outdated_drafts where account_id = $1', [accountId]);
  });

  it("keeps a site's balancing out while a batch holds the site, and lets holders share it", async () => {
    const site = await db.site(accountId);
    const [taken, held] = [gate(), gate()];
    const holding = db.inTransaction(async () => {
      await new MikroBalancingRepository(db.orm.em).holdSites(accountId, [site.id, site.id]);
      // A second holder (another run's batch) is not kept out.
      await db.inTransaction(() => new MikroBalancingRepository(db.orm.em).holdSites(accountId, [site.id]));
      taken.open();
      await held.promise;
    });
    // Balancing starts once the batch holds the site (else it could take the site first).
    await taken.promise;
    let balanced = false;
    const balancing = db.inTransaction(async () => {
      await new MikroBalancingRepository(db.orm.em).lockSite(accountId, site.id);
      balanced = true;
    });
    await db.waitForLockWaiters(1);
    expect(balanced).toBe(false);
    held.open();
    await Promise.all([holding, balancing]);
    expect(balanced).toBe(true);
  });

  it('keeps marks of master-data changes waiting while a batch holds the account off, lets them share, and leaves balancing alone', async () => {
    const site = await db.site(accountId);
    const draft = await invoiceOn(site.id, '2026-11-01', '2026-12-01');
    const contractId = (await db.sql<{ contract_id: string }>('select contract_id from invoices where id = $1', [draft]))[0]!.contract_id;
    const repository = () => new MikroOutdatedDraftRepository(db.orm.em);
    const [taken, held] = [gate(), gate()];
    const batch = db.inTransaction(async () => {
      await repository().holdOffChanges(accountId);
      taken.open();
      await held.promise;
    });
    await taken.promise;
    const done: string[] = [];
    const changes = [
      db.inTransaction(() => repository().markOfContracts(accountId, [contractId])).then(() => done.push('contract')),
      db.inTransaction(() => repository().markOfAccount(accountId)).then(() => done.push('account')),
    ];
    await db.waitForLockWaiters(2);
    // Balancing is held off by the sites a batch holds, not by this.
    await db.inTransaction(() => repository().markOfSite(accountId, site.id, [{ start: Date.parse('2026-11-10T00:00:00Z'), end: Date.parse('2026-11-10T00:15:00Z') }], 'Europe/Berlin'));
    expect(done).toEqual([]);
    expect(await marked([draft])).toEqual([draft]);
    await db.sql('delete from outdated_drafts where account_id = $1', [accountId]);
    held.open();
    await Promise.all([batch, ...changes]);
    expect(done.sort()).toEqual(['account', 'contract']);
    expect(await marked([draft])).toEqual([draft]);

    // Changes share the lock: one in flight does not keep another waiting.
    const first = gate();
    const holding = db.inTransaction(async () => {
      await repository().markOfContracts(accountId, [contractId]);
      await first.promise;
    });
    await db.inTransaction(() => repository().markOfAccount(accountId));
    first.open();
    await holding;
  });
});
