import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { ActivityLog } from '../../activity-log.js';
import type { ContractRepository } from '../../contracts/contracts.repository.js';
import type { CustomerRepository } from '../../customers/customers.repository.js';
import { missingSellerDetails } from '../../domain/accounts/seller-details.js';
import type { BillRun, BillRunError } from '../../domain/billing/bill-run.js';
import { linesOfDraft, type Invoice, type LineItem } from '../../domain/billing/invoice.js';
import { issuingBlocker, type IssuingBlocker } from '../../domain/billing/legal-requirements.js';
import type { Contract } from '../../domain/contracts/contract.js';
import { ConflictError } from '../../errors.js';
import type { InvoiceDraftsService } from '../invoices/invoice-drafts.service.js';
import type { InvoiceRepository } from '../invoices/invoices.repository.js';
import type { BillRunRepository } from './bill-runs.repository.js';

/*
 * What a bill run checks of its contracts' drafts: whether an invoice would be legal (when
 * drafting and again when issuing), and, when issuing, whether a draft's inputs changed since it
 * was drafted (then it is drafted again). Each runs inside the batch's transaction.
 */

export interface BillRunDraftsDependencies {
  accounts: AccountRepository;
  customers: CustomerRepository;
  contracts: ContractRepository;
  billRuns: BillRunRepository;
  invoices: InvoiceRepository;
  drafts: InvoiceDraftsService;
  log: ActivityLog;
}

/** The contracts (by id) of a batch that may not be invoiced because the invoice would not be valid. */
export async function issuingBlockers(deps: Pick<BillRunDraftsDependencies, 'accounts' | 'customers'>, accountId: string, contracts: readonly Pick<Contract, 'id' | 'customerId'>[]): Promise<Map<string, IssuingBlocker>> {
  const sellerMissing = missingSellerDetails((await deps.accounts.findAccount(accountId))!);
  const customers = await deps.customers.readByIds(accountId, [...new Set(contracts.map((c) => c.customerId))]);
  const blockers = new Map(customers.flatMap((customer) => {
    const blocker = issuingBlocker(sellerMissing, customer);
    return blocker ? [[customer.id, blocker] as const] : [];
  }));
  return new Map(contracts.flatMap((c) => (blockers.has(c.customerId) ? [[c.id, blockers.get(c.customerId)!] as const] : [])));
}

/**
 * Never a half-legal invoice: drafts whose customer's address was removed since drafting lose
 * their draft and get the error on the run, as when drafting. A seller profile made incomplete
 * since fails the phase instead (complete the run again once the profile is whole), so that the
 * drafts stay. Answers the drafts that may be issued.
 */
export async function withoutBlocked(deps: BillRunDraftsDependencies, run: BillRun, drafts: readonly Invoice[], now: Date): Promise<Invoice[]> {
  const blocked = await issuingBlockers(deps, run.accountId, drafts.map((d) => ({ id: d.contractId, customerId: d.customerId })));
  if (blocked.size === 0) return [...drafts];
  const seller = [...blocked.values()].find((blocker) => blocker.code === 'seller_profile_incomplete');
  if (seller) throw new ConflictError(seller.code, seller.message);
  await deps.invoices.removeDrafts(run.accountId, drafts.filter((d) => blocked.has(d.contractId)).map((d) => d.id));
  await deps.billRuns.addErrors([...blocked].map(([contractId, blocker]) => ({ billRunId: run.id, accountId: run.accountId, contractId, ...blocker, createdAt: now })));
  return drafts.filter((d) => !blocked.has(d.contractId));
}

/**
 * Drafts again, from the data as it stands now, the drafts among `drafts` marked outdated since
 * they were drafted (their site balanced again over their period, their meters' measurements,
 * their contract or its meters, their product's prices or a tax rate changed): the same invoice
 * with new lines and totals, and the contract's customer now. A contract that can no longer be
 * billed, or whose customer now has no address, loses its draft and gets its error on the run; one
 * the run no longer bills (no contract meter in the period) loses its draft.
 * Answers the drafts to issue.
 */
export async function redraftOutdated(deps: BillRunDraftsDependencies, run: BillRun, drafts: readonly Invoice[], now: Date): Promise<Invoice[]> {
  const outdated = await deps.invoices.outdatedDrafts(run.accountId, drafts.map((d) => d.id));
  if (outdated.size === 0) return [...drafts];
  const stale = drafts.filter((d) => outdated.has(d.id));
  const billable = await deps.billRuns.billableAmong(run, stale.map((d) => d.contractId));
  const contracts = await deps.contracts.readByIds(run.accountId, [...billable]);
  // The contract's customer now: a contract can change hands after drafting.
  const blocked = await issuingBlockers(deps, run.accountId, contracts);
  const results = new Map((await deps.drafts.draftAll(run.accountId, contracts, run.periodStart, run.periodEnd)).map((r) => [r.contract.id, r]));
  const redrafted: Invoice[] = [];
  const lines: LineItem[] = [];
  const dropped = new Set<string>();
  const errors: BillRunError[] = [];
  for (const invoice of stale) {
    const result = results.get(invoice.contractId);
    // No longer the run's to bill (its meters left the period, or it ended before it).
    if (!result) {
      dropped.add(invoice.id);
      continue;
    }
    const blocker = blocked.get(invoice.contractId);
    if (blocker || result.error) {
      dropped.add(invoice.id);
      errors.push({ billRunId: run.id, accountId: run.accountId, contractId: invoice.contractId, ...(blocker ?? result.error)!, createdAt: now });
      continue;
    }
    const transition = invoice.redraft(result.draft, { customerId: result.contract.customerId, prepaymentIds: result.prepaymentIds }, now);
    if (!transition.ok) throw new ConflictError(transition.refusal.code, transition.refusal.message);
    redrafted.push(invoice);
    lines.push(...linesOfDraft(result.draft, invoice, { now, newId: randomUUID }));
  }
  await deps.invoices.replaceDraftLines(run.accountId, redrafted.map((d) => d.id), lines);
  await deps.invoices.removeDrafts(run.accountId, [...dropped]);
  await deps.billRuns.addErrors(errors);
  deps.log.info({ accountId: run.accountId, billRunId: run.id, redrafted: redrafted.length, dropped: dropped.size }, 'bill run drafts drafted again');
  return drafts.filter((d) => !dropped.has(d.id));
}
