import { z } from 'zod';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { ContractMeterRepository, ContractRepository } from '../contracts/contracts.repository.js';
import { draftInvoice, type EnergyKind, type InvoiceDraft, type MeterEnergy, type PricedComponent } from '../domain/billing/invoice-draft.js';
import { formatCents, formatDecimal, formatMicros } from '../domain/billing/money.js';
import { bucketEnergy, loadWindow } from '../domain/measurements/bucket-energy.js';
import { isBalanced, type Site } from '../domain/sites/site.js';
import { calendarDateOf, startOfDay } from '../domain/time/calendar-date.js';
import { bucketsOf, QUARTER_HOUR_MS } from '../domain/time/buckets.js';
import type { ContractMeter } from '../domain/contracts/contract.js';
import { ConflictError } from '../errors.js';
import { calendarDate, endAfter } from '../field-formats.js';
import type { MeasurementRepository } from '../measurements/measurements.repository.js';
import type { MeterRepository } from '../meters/meters.repository.js';
import type { PaymentRepository } from '../payments/payments.repository.js';
import { loadOwned } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import { parseInput } from '../validation.js';
import type { BillingEnergyRepository } from './billing-energy.repository.js';
import type { PriceComponentGroupRepository, PriceComponentRepository, PriceRepository } from './price-catalogue.repository.js';
import type { TaxRateRepository } from './tax-rates.service.js';

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
  payments: PaymentRepository;
}

export interface InvoiceDraftView {
  contractId: string;
  periodStart: string;
  periodEnd: string;
  lines: Array<{
    description: string;
    kind: string;
    quantity: string;
    unit: string;
    unitPrice: string;
    netAmount: string;
    taxRateId: string;
    taxRate: string;
    periodStart: string;
    periodEnd: string;
    priceComponentId: string;
    meterId: string | null;
  }>;
  netTotal: string;
  taxes: Array<{ taxRateId: string; percentage: string; netAmount: string; taxAmount: string }>;
  grossTotal: string;
  prepaymentsTotal: string;
  amountDue: string;
}

function present(contractId: string, draft: InvoiceDraft): InvoiceDraftView {
  return {
    contractId,
    periodStart: draft.periodStart,
    periodEnd: draft.periodEnd,
    lines: draft.lines.map((line) => ({
      description: line.description,
      kind: line.kind,
      quantity: formatDecimal(line.quantity, line.quantityScale),
      unit: line.unit,
      unitPrice: formatMicros(line.unitPrice),
      netAmount: formatCents(line.netAmount),
      taxRateId: line.taxRateId,
      taxRate: formatDecimal(line.taxRate, 2),
      periodStart: line.periodStart,
      periodEnd: line.periodEnd,
      priceComponentId: line.priceComponentId,
      meterId: line.meterId,
    })),
    netTotal: formatCents(draft.netTotal),
    taxes: draft.taxes.map((t) => ({ taxRateId: t.taxRateId, percentage: formatDecimal(t.percentage, 2), netAmount: formatCents(t.netAmount), taxAmount: formatCents(t.taxAmount) })),
    grossTotal: formatCents(draft.grossTotal),
    prepaymentsTotal: formatCents(draft.prepaymentsTotal),
    amountDue: formatCents(draft.amountDue),
  };
}

const ENERGY_KINDS: EnergyKind[] = ['local_energy', 'grid_energy', 'energy'];

const inAssignment = (assignment: ContractMeter, day: string) => day >= assignment.startDate && (assignment.endDate === null || day < assignment.endDate);

/**
 * What a contract's invoice for a period would be, computed from the stored data with the billing
 * engine: on balanced sites only balanced values (every quarter hour of the period must be
 * balanced), on unbalanced ones the meters' consumption (every day complete). Bill runs draft the
 * same way; this is the preview internal tools show before one.
 */
export class InvoiceDraftsService {
  constructor(private readonly deps: InvoiceDraftsDependencies) {}

  async preview(actor: Actor, contractId: string, query: unknown): Promise<InvoiceDraftView> {
    const { periodStart, periodEnd } = parseInput(draftInvoiceQuery, query, { unknownCode: 'unknown_parameter' });
    const contract = await loadOwned(this.deps.contracts, actor, 'contract', contractId);
    const { timezone } = (await this.deps.accounts.findAccount(actor.accountId))!;
    const site = (await this.deps.sites.findById(actor.accountId, contract.siteId))!;
    const from = periodStart > contract.startDate ? periodStart : contract.startDate;
    const to = contract.endDate !== null && contract.endDate < periodEnd ? contract.endDate : periodEnd;
    const assignments = (await this.deps.contractMeters.findByContractIds(actor.accountId, [contract.id])).filter(
      (a) => a.startDate < to && (a.endDate === null || a.endDate > from),
    );
    const meters = from < to ? await this.energy(actor, site, assignments, startOfDay(from, timezone).getTime(), startOfDay(to, timezone).getTime(), timezone) : [];
    const result = draftInvoice({
      periodStart,
      periodEnd,
      contractStart: contract.startDate,
      contractEnd: contract.endDate,
      meters,
      components: await this.components(actor, contract.electricityProductId),
      prepayments: await this.deps.payments.receivedPrepayments(actor.accountId, contract.id, periodEnd),
    });
    if (result.problem) throw new ConflictError(result.problem.code, result.problem.message);
    return present(contract.id, result.draft);
  }

  /** Each assigned meter's daily energy per kind, within its assignment. */
  private async energy(actor: Actor, site: Site, assignments: readonly ContractMeter[], from: number, to: number, timezone: string): Promise<MeterEnergy[]> {
    const meterIds = [...new Set(assignments.map((a) => a.meterId))];
    const byMeter = new Map<string, Map<EnergyKind, Map<string, bigint>>>();
    const add = (meterId: string, kind: EnergyKind, day: string, wh: bigint) => {
      if (!assignments.some((a) => a.meterId === meterId && inAssignment(a, day))) return;
      const kinds = byMeter.get(meterId) ?? new Map<EnergyKind, Map<string, bigint>>();
      const days = kinds.get(kind) ?? new Map<string, bigint>();
      days.set(day, (days.get(day) ?? 0n) + wh);
      kinds.set(kind, days);
      byMeter.set(meterId, kinds);
    };
    if (isBalanced(site.type)) {
      const expected = (to - from) / QUARTER_HOUR_MS;
      const balanced = await this.deps.billingEnergy.balancedIntervals(actor.accountId, site.id, from, to);
      if (balanced < expected) {
        throw new ConflictError('incomplete_balancing', `${expected - balanced} of ${expected} quarter hours of site ${site.id} in the period are not balanced; only balanced values are invoiced.`);
      }
      for (const row of await this.deps.billingEnergy.balancedEnergy(actor.accountId, site.id, meterIds, from, to, timezone)) {
        add(row.meterId, row.kind === 'local' ? 'local_energy' : 'grid_energy', row.day, row.wh);
      }
    } else {
      const buckets = bucketsOf(from, to, 'P1D', timezone);
      for (const meter of await this.deps.meters.findByIds(actor.accountId, meterIds)) {
        const window = loadWindow(meter.measuring, from, to);
        const points = (await this.deps.measurements.load(actor.accountId, [{ meterId: meter.id, ...window }])).get(meter.id) ?? [];
        for (const bucket of bucketEnergy(meter.measuring, points, buckets)) {
          const day = calendarDateOf(new Date(bucket.start), timezone);
          if (!bucket.complete && assignments.some((a) => a.meterId === meter.id && inAssignment(a, day))) {
            throw new ConflictError('incomplete_measurements', `Meter ${meter.id} has no complete data for ${day}.`);
          }
          add(meter.id, 'energy', day, BigInt(Math.round(bucket.wh)));
        }
      }
    }
    // Invoice lines in a stable order: by meter, local before grid energy.
    return [...byMeter]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([meterId, kinds]) => ENERGY_KINDS.flatMap((kind) => (kinds.has(kind) ? [{ meterId, kind, days: kinds.get(kind)! }] : [])));
  }

  /** The product's components with their prices and the history of each one's tax rate. */
  private async components(actor: Actor, productId: string): Promise<PricedComponent[]> {
    const { accountId } = actor;
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
