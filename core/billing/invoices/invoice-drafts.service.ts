import { z } from 'zod';
import type { AccountRepository } from '../../accounts/accounts.repository.js';
import type { Actor } from '../../auth/actor.js';
import type { Contract, ContractMeter } from '../../domain/contracts/contract.js';
import type { ContractMeterRepository, ContractRepository } from '../../contracts/contracts.repository.js';
import { draftInvoice, type DraftProblem, type EnergyKind, type InvoiceDraft, type MeterEnergy, type PricedComponent } from '../../domain/billing/invoice-draft.js';
import { formatCents } from '../../domain/billing/money.js';
import { presentLine, presentTax, type InvoiceLineView, type InvoiceTaxView } from './invoice-presenter.js';
import { isBalanced, type Site } from '../../domain/sites/site.js';
import { inForce, inForceOn } from '../../domain/periods.js';
import { calendarDateOf, startOfDay } from '../../domain/time/calendar-date.js';
import { bucketsOf, QUARTER_HOUR_MS } from '../../domain/time/buckets.js';
import { ConflictError } from '../../errors.js';
import { calendarDate, endAfter } from '../../field-formats.js';
import { MeasuredEnergy } from '../../measurements/measured-energy.js';
import type { MeasurementRepository } from '../../measurements/measurements.repository.js';
import type { MeterRepository } from '../../meters/meters.repository.js';
import { loadOwned } from '../../resource.service.js';
import type { SiteRepository } from '../../sites/sites.repository.js';
import { parseInput } from '../../validation.js';
import type { BillingEnergyRepository } from './billing-energy.repository.js';
import type { PriceComponentGroupRepository, PriceComponentRepository, PriceRepository } from '../catalogue/price-catalogue.repository.js';
import type { TaxRateRepository } from '../catalogue/tax-rates.service.js';

export const draftInvoiceQuery = z.object({ periodStart: calendarDate, periodEnd: calendarDate }).strict().superRefine(endAfter('periodStart', 'periodEnd'));

export interface InvoiceDraftsDependencies {
  accounts: AccountRepository;
  contracts: ContractRepository;
  contractMeters: ContractMeterRepository;
  sites: SiteRepository;
  meters: MeterRepository;
  measurements: MeasurementRepository;
  billingEnergy: BillingEnergyRepository;
  priceGroups: PriceComponentGroupRepository;
  priceComponents: PriceComponentRepository;
  prices: PriceRepository;
  taxRates: TaxRateRepository;
}

export interface InvoiceDraftView {
  contractId: string;
  periodStart: string;
  periodEnd: string;
  lines: InvoiceLineView[];
  netTotal: string;
  taxes: InvoiceTaxView[];
  grossTotal: string;
  prepaymentsTotal: string;
  amountDue: string;
}

function present(contractId: string, draft: InvoiceDraft): InvoiceDraftView {
  return {
    contractId,
    periodStart: draft.periodStart,
    periodEnd: draft.periodEnd,
    lines: draft.lines.map(presentLine),
    netTotal: formatCents(draft.netTotal),
    taxes: draft.taxes.map(presentTax),
    grossTotal: formatCents(draft.grossTotal),
    prepaymentsTotal: formatCents(draft.prepaymentsTotal),
    amountDue: formatCents(draft.amountDue),
  };
}

const ENERGY_KINDS: EnergyKind[] = ['local_energy', 'grid_energy', 'energy'];


/** Why a contract cannot be billed for the period. */
export interface DraftError {
  code: DraftProblem['code'] | 'incomplete_balancing' | 'incomplete_measurements';
  message: string;
}

/** A contract's draft for a period, or why it has none; `prepaymentIds` are what the draft deducted. */
export type ContractDraft = { contract: Contract; draft: InvoiceDraft; prepaymentIds: string[]; error?: never } | { contract: Contract; error: DraftError; draft?: never };

/** A contract's billed window: the period clipped to the contract, as local days and instants. */
interface Window {
  contract: Contract;
  from: string;
  to: string;
  start: number;
  end: number;
  assignments: ContractMeter[];
}

type EnergyByMeter = Map<string, Map<EnergyKind, Map<string, bigint>>>;

function addEnergy(energy: EnergyByMeter, meterId: string, kind: EnergyKind, day: string, wh: bigint): void {
  const kinds = energy.get(meterId) ?? new Map<EnergyKind, Map<string, bigint>>();
  const days = kinds.get(kind) ?? new Map<string, bigint>();
  days.set(day, (days.get(day) ?? 0n) + wh);
  kinds.set(kind, days);
  energy.set(meterId, kinds);
}

/** Invoice lines in a stable order: by meter, local before grid energy. */
function meterEnergies(energy: EnergyByMeter): MeterEnergy[] {
  return [...energy]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([meterId, kinds]) => ENERGY_KINDS.flatMap((kind) => (kinds.has(kind) ? [{ meterId, kind, days: kinds.get(kind)! }] : [])));
}

/**
 * Draft invoices computed from the stored data with the billing engine: on balanced
 * sites only balanced values (every quarter hour of the billed window must be balanced), on
 * unbalanced ones the meters' consumption (every day complete). Bill runs draft batches of
 * contracts with a fixed number of statements per site; the preview drafts one contract.
 */
export class InvoiceDraftsService {
  constructor(private readonly deps: InvoiceDraftsDependencies) {}

  async preview(actor: Actor, contractId: string, query: unknown): Promise<InvoiceDraftView> {
    const { periodStart, periodEnd } = parseInput(draftInvoiceQuery, query, { unknownCode: 'unknown_parameter' });
    const contract = await loadOwned(this.deps.contracts, actor, 'contract', contractId);
    const [result] = await this.draftAll(actor.accountId, [contract], periodStart, periodEnd);
    if (result!.error) throw new ConflictError(result!.error.code, result!.error.message);
    return present(contract.id, result!.draft);
  }

  /** Drafts for many contracts of one account at once. */
  async draftAll(accountId: string, contracts: readonly Contract[], periodStart: string, periodEnd: string): Promise<ContractDraft[]> {
    if (contracts.length === 0) return [];
    const { timezone } = (await this.deps.accounts.findAccount(accountId))!;
    const assignments = Map.groupBy(await this.deps.contractMeters.findByContractIds(accountId, contracts.map((c) => c.id)), (a) => a.contractId);
    const windows = contracts.map((contract): Window => {
      const from = periodStart > contract.startDate ? periodStart : contract.startDate;
      const to = contract.endDate !== null && contract.endDate < periodEnd ? contract.endDate : periodEnd;
      return {
        contract,
        from,
        to,
        start: startOfDay(from, timezone).getTime(),
        end: startOfDay(to, timezone).getTime(),
        assignments: (assignments.get(contract.id) ?? []).filter((a) => inForce(a, from, to)),
      };
    });
    const billed = windows.filter((w) => w.from < w.to);
    const energy = new Map<string, EnergyByMeter | DraftError>();
    const billedOnSite = Map.groupBy(billed, (w) => w.contract.siteId);
    for (const site of await this.deps.sites.findByIds(accountId, [...billedOnSite.keys()])) {
      const onSite = billedOnSite.get(site.id)!;
      const read = isBalanced(site.type) ? this.balancedEnergy(accountId, site, onSite, timezone) : this.consumption(accountId, onSite, timezone);
      for (const [contractId, value] of await read) energy.set(contractId, value);
    }
    const components = new Map<string, PricedComponent[]>();
    for (const productId of new Set(contracts.map((c) => c.electricityProductId))) components.set(productId, await this.components(accountId, productId));
    const prepayments = Map.groupBy(await this.deps.billingEnergy.receivedPrepayments(accountId, contracts.map((c) => c.id), periodEnd), (p) => p.contractId);
    return windows.map(({ contract }): ContractDraft => {
      const used = energy.get(contract.id) ?? new Map();
      if (!(used instanceof Map)) return { contract, error: used };
      const deducted = prepayments.get(contract.id) ?? [];
      const result = draftInvoice({
        periodStart,
        periodEnd,
        contractStart: contract.startDate,
        contractEnd: contract.endDate,
        meters: meterEnergies(used),
        components: components.get(contract.electricityProductId)!,
        prepayments: deducted.reduce((sum, p) => sum + p.amount, 0n),
      });
      return result.problem ? { contract, error: result.problem } : { contract, draft: result.draft, prepaymentIds: deducted.map((p) => p.id) };
    });
  }

  /** Balanced local and grid energy of the site's contracts, each within its meters' assignments. */
  private async balancedEnergy(accountId: string, site: Site, windows: readonly Window[], timezone: string): Promise<Map<string, EnergyByMeter | DraftError>> {
    const fromDay = windows.map((w) => w.from).reduce((a, b) => (a < b ? a : b));
    const toDay = windows.map((w) => w.to).reduce((a, b) => (a > b ? a : b));
    const balancedPerDay = await this.deps.billingEnergy.balancedIntervalsPerDay(accountId, site.id, fromDay, toDay, timezone);
    const meterIds = [...new Set(windows.flatMap((w) => w.assignments.map((a) => a.meterId)))];
    const byMeter = Map.groupBy(await this.deps.billingEnergy.balancedEnergy(accountId, site.id, meterIds, fromDay, toDay, timezone), (row) => row.meterId);
    return new Map<string, EnergyByMeter | DraftError>(
      windows.map((w) => {
        const expected = (w.end - w.start) / QUARTER_HOUR_MS;
        let balanced = 0;
        for (const [day, intervals] of balancedPerDay) if (day >= w.from && day < w.to) balanced += intervals;
        if (balanced < expected) {
          return [w.contract.id, { code: 'incomplete_balancing', message: `${expected - balanced} of ${expected} quarter hours of site ${site.id} from ${w.from} to ${w.to} are not balanced; only balanced values are invoiced.` }];
        }
        const used: EnergyByMeter = new Map();
        for (const assignment of w.assignments) {
          for (const row of byMeter.get(assignment.meterId) ?? []) {
            if (row.day < w.from || row.day >= w.to || !inForceOn(assignment, row.day)) continue;
            addEnergy(used, row.meterId, row.kind === 'local' ? 'local_energy' : 'grid_energy', row.day, row.wh);
          }
        }
        return [w.contract.id, used];
      }),
    );
  }

  /** Daily consumption of the contracts' meters on an unbalanced site; every billed day complete. */
  private async consumption(accountId: string, windows: readonly Window[], timezone: string): Promise<Map<string, EnergyByMeter | DraftError>> {
    const start = Math.min(...windows.map((w) => w.start));
    const end = Math.max(...windows.map((w) => w.end));
    const meterIds = [...new Set(windows.flatMap((w) => w.assignments.map((a) => a.meterId)))];
    // Ingest of these meters waits until this transaction ends, and a later one marks its drafts outdated.
    await this.deps.measurements.holdMeters(accountId, meterIds);
    const meters = await this.deps.meters.findByIds(accountId, meterIds);
    const measured = await MeasuredEnergy.read(this.deps.measurements, accountId, meters.map((meter) => ({ meter, start, end })));
    const buckets = bucketsOf(start, end, 'P1D', timezone);
    const daily = new Map(meters.map((meter) => [meter.id, measured.energy(meter, buckets).map((b) => ({ ...b, day: calendarDateOf(new Date(b.start), timezone) }))]));
    return new Map<string, EnergyByMeter | DraftError>(
      windows.map((w) => {
        const used: EnergyByMeter = new Map();
        for (const assignment of w.assignments) {
          for (const bucket of daily.get(assignment.meterId) ?? []) {
            if (bucket.day < w.from || bucket.day >= w.to || !inForceOn(assignment, bucket.day)) continue;
            if (!bucket.complete) return [w.contract.id, { code: 'incomplete_measurements', message: `Meter ${assignment.meterId} has no complete data for ${bucket.day}.` }];
            addEnergy(used, assignment.meterId, 'energy', bucket.day, BigInt(Math.round(bucket.wh)));
          }
        }
        return [w.contract.id, used];
      }),
    );
  }

  /** The product's components with their prices and the history of each one's tax rate. */
  private async components(accountId: string, productId: string): Promise<PricedComponent[]> {
    const groups = await this.deps.priceGroups.findByProductIds(accountId, [productId]);
    const components = await this.deps.priceComponents.findByGroupIds(accountId, groups.map((g) => g.id));
    const prices = await this.deps.prices.findByComponentIds(accountId, components.map((c) => c.id));
    const rates = await this.deps.taxRates.findByIds(accountId, [...new Set(components.map((c) => c.taxRateId))]);
    const histories = new Map(await Promise.all(rates.map(async (rate) => [rate.id, await this.deps.taxRates.historyOf(accountId, rate.name)] as const)));
    return components.map((component) => ({
      component,
      prices: prices.filter((p) => p.priceComponentId === component.id),
      taxHistory: histories.get(component.taxRateId) ?? [],
    }));
  }
}
