import { randomUUID } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../clock.js';
import { formatDecimal, parseDecimal } from '../../domain/billing/money.js';
import { overlappingRate, TaxRate } from '../../domain/billing/tax-rate.js';
import { ConflictError } from '../../errors.js';
import { mergeUpdate } from '../../patching.js';
import type { ResourceRepository } from '../../resource.repository.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../../resource.service.js';
import type { OutdatedDraftRepository } from '../invoices/outdated-drafts.repository.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import { parseInput } from '../../validation.js';
import { createTaxRateCommand, listTaxRatesQuery, updateTaxRateCommand, type TaxRateView } from './tax-rates.commands.js';

export interface TaxRateRepository extends ResourceRepository<TaxRate, { name?: string }> {
  historyOf(accountId: string, name: string): Promise<TaxRate[]>;
}

function present(rate: TaxRate): TaxRateView {
  const { id, name, validFrom, validUntil } = rate;
  return { id, name, percentage: formatDecimal(BigInt(rate.percentage), 2), validFrom, validUntil, ...timestampsOf(rate) };
}

/** Tax rates: histories per name, no overlaps. */
export class TaxRatesService implements ResourceService<TaxRateView> {
  constructor(
    private readonly rates: TaxRateRepository,
    private readonly outdatedDrafts: OutdatedDraftRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: unknown): Promise<TaxRateView> {
    const command = parseInput(createTaxRateCommand, input);
    const now = this.clock.now();
    const rate = Object.assign(new TaxRate(), {
      id: randomUUID(),
      accountId: actor.accountId,
      ...command,
      percentage: Number(parseDecimal(command.percentage, 2)),
      createdAt: now,
      updatedAt: now,
    });
    const check = () => this.assertNoOverlap(actor, rate);
    return this.uow.transactional(async () => {
      await check();
      this.rates.add(rate);
      // A rate is looked up by name and date: any draft may have used the history it changes.
      await this.outdatedDrafts.markOfAccount(actor.accountId);
      return present(rate);
    }, check);
  }

  async get(actor: Actor, id: string): Promise<TaxRateView> {
    return present(await loadOwned(this.rates, actor, 'tax_rate', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<TaxRateView>> {
    return listPage(this.rates, actor, listTaxRatesQuery, query, (items) => items.map(present));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<TaxRateView> {
    let next: TaxRate | undefined;
    return this.uow.transactional(async () => {
      const rate = await loadOwned(this.rates, actor, 'tax_rate', id);
      const { merged } = mergeUpdate({ current: present(rate), patch, patchSchema: updateTaxRateCommand, createSchema: createTaxRateCommand });
      next = Object.assign(new TaxRate(), rate, { ...merged, percentage: Number(parseDecimal(merged.percentage, 2)) });
      await this.assertNoOverlap(actor, next);
      Object.assign(rate, { ...merged, percentage: next.percentage, updatedAt: this.clock.now() });
      await this.outdatedDrafts.markOfAccount(actor.accountId);
      return present(rate);
    }, async () => {
      if (next) await this.assertNoOverlap(actor, next);
    });
  }

  private async assertNoOverlap(actor: Actor, rate: TaxRate): Promise<void> {
    const overlap = overlappingRate(rate, await this.rates.historyOf(actor.accountId, rate.name));
    if (overlap) {
      throw new ConflictError('tax_rate_overlaps', `Rate ${overlap.id} of "${rate.name}" is in force from ${overlap.validFrom}${overlap.validUntil ? ` to ${overlap.validUntil}` : ''}.`);
    }
  }
}
