import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { AccountCache } from '../caching/account-cache.js';
import type { Clock } from '../clock.js';
import type { CustomAttributesService, PresentValues } from '../custom-attributes/custom-attributes.service.js';
import type { CustomerRepository } from '../customers/customers.repository.js';
import { findCycle, parseFormula, referencedCustomerIds, referencedMeterIds, type FormulaComponent } from '../domain/meters/formula.js';
import { Meter } from '../domain/meters/meter.js';
import { isVirtualMpo } from '../domain/mpos/mpo.js';
import { ConflictError, ValidationError, type FieldError } from '../errors.js';
import type { MpoRepository } from '../mpos/mpos.repository.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import { assertReferences } from '../references.js';
import { listPage, loadOwned, timestampsOf, viewsById, type ListResult, type ResourceService } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { MeterRepository } from './meters.repository.js';
import { createMeterCommand, listMetersQuery, removedMeterFields, updateMeterCommand, type MeterView } from './meters.commands.js';

type MeterCommand = z.output<typeof createMeterCommand>;

function present(meter: Meter, values: PresentValues): MeterView {
  const { id, siteId, mpoId, direction, identifier, serial, marketLocationId, meteringPointId, measuring, grid, formula } = meter;
  return {
    id,
    siteId,
    mpoId,
    direction,
    identifier,
    serial,
    marketLocationId,
    meteringPointId,
    startDate: meter.startDate.toISOString(),
    measuring,
    grid,
    formula,
    customAttributes: values(meter.customAttributes),
    ...timestampsOf(meter),
  };
}

export interface MeterDependencies {
  meters: MeterRepository;
  sites: SiteRepository;
  mpos: MpoRepository;
  customers: CustomerRepository;
  attributes: CustomAttributesService;
  uow: UnitOfWork;
  clock: Clock;
  outbox: EventOutbox;
  /** Meters read by id, forgotten when a meter or a custom attribute of the account changes. */
  views: AccountCache<MeterView>;
}

export class MetersService implements ResourceService<MeterView> {
  constructor(private readonly deps: MeterDependencies) {}

  async create(actor: Actor, input: unknown): Promise<MeterView> {
    const command = parseInput(createMeterCommand, input, { removed: removedMeterFields });
    const { meters, attributes, uow, clock } = this.deps;
    const id = randomUUID();
    const check = () => this.checkMeter(actor, command, id);
    return uow.transactional(async () => {
      const formula = await check();
      const customAttributes = await attributes.checkValues(actor.accountId, 'meter', command.customAttributes);
      const now = clock.now();
      const meter = Object.assign(new Meter(), {
        ...command,
        id: formula.id,
        accountId: actor.accountId,
        startDate: new Date(command.startDate),
        formula: formula.components,
        customAttributes,
        createdAt: now,
        updatedAt: now,
      });
      meters.add(meter);
      const view = present(meter, await attributes.presenter(actor.accountId, 'meter'));
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'meter.created', entityId: view.id, data: view, siteIds: [meter.siteId] }]);
      return view;
    }, async () => {
      await check();
    });
  }

  get(actor: Actor, id: string): Promise<MeterView> {
    return this.deps.views.get(actor.accountId, id, async () => (await this.presentAll(actor, [await loadOwned(this.deps.meters, actor, 'meter', id)]))[0]!);
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<MeterView[]> {
    return viewsById(this.deps.views, actor.accountId, ids, async (missing) => this.presentAll(actor, await this.deps.meters.findByIds(actor.accountId, missing)));
  }

  async listBySites(actor: Actor, siteIds: readonly string[]): Promise<MeterView[]> {
    return this.presentAll(actor, await this.deps.meters.findBySiteIds(actor.accountId, siteIds));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<MeterView>> {
    return listPage(this.deps.meters, actor, listMetersQuery, query, (items) => this.presentAll(actor, items));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<MeterView> {
    const { meters, attributes, uow, clock } = this.deps;
    let checked: MeterCommand | undefined;
    return uow.transactional(async () => {
      const meter = await loadOwned(meters, actor, 'meter', id);
      const values = await attributes.presenter(actor.accountId, 'meter');
      const { merged } = mergeUpdate({ current: present(meter, values), patch, patchSchema: updateMeterCommand, createSchema: createMeterCommand, removed: removedMeterFields });
      if (merged.siteId !== meter.siteId) {
        const dependents = await meters.dependentsOf(actor.accountId, meter.id);
        if (dependents.length > 0) throw new ConflictError('meter_in_use', `The meter cannot move to another site while ${dependents.join(', ')} refer to it.`);
      }
      checked = merged;
      const formula = await this.checkMeter(actor, merged, meter.id);
      const customAttributes = await attributes.checkValues(actor.accountId, 'meter', merged.customAttributes);
      Object.assign(meter, { ...merged, startDate: new Date(merged.startDate), formula: formula.components, customAttributes, updatedAt: clock.now() });
      const view = present(meter, values);
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'meter.updated', entityId: view.id, data: view, siteIds: [meter.siteId] }]);
      return view;
    }, async () => {
      if (checked) await this.checkMeter(actor, checked, id);
    });
  }

  /** For internal tools (GraphQL): a meter without assignments, settings, formulas naming it or data. */
  async delete(actor: Actor, id: string): Promise<MeterView> {
    const { meters, attributes, uow } = this.deps;
    return uow.transactional(async () => {
      const meter = await loadOwned(meters, actor, 'meter', id);
      const view = present(meter, await attributes.presenter(actor.accountId, 'meter'));
      await deleteUnreferenced(meters, actor, 'meter', meter);
      await this.deps.outbox.record([{ ...causedBy(actor), type: 'meter.deleted', entityId: meter.id, data: view, siteIds: [meter.siteId] }]);
      return view;
    });
  }

  /** Every rule for physical and virtual meters (same site, valid formula, no cycles, one grid meter per site); returns the parsed formula. */
  private async checkMeter(actor: Actor, command: MeterCommand, id: string): Promise<{ id: string; components: FormulaComponent[] | null }> {
    const { meters, sites, mpos } = this.deps;
    const [site] = await sites.findByIds(actor.accountId, [command.siteId]);
    const [mpo] = command.mpoId ? await mpos.findByIds(actor.accountId, [command.mpoId]) : [];
    assertReferences([
      { path: 'siteId', resource: 'site', id: command.siteId, exists: Boolean(site) },
      ...(command.mpoId ? [{ path: 'mpoId', resource: 'MPO', id: command.mpoId, exists: Boolean(mpo) }] : []),
    ]);
    if (await meters.isIdentifierTaken(actor.accountId, command.identifier, id)) {
      throw new ConflictError('meter_identifier_taken', `A meter with identifier ${command.identifier} exists in this account.`);
    }
    const virtualMpo = mpo !== undefined && isVirtualMpo(mpo);
    if (command.formula === null) {
      const errors: FieldError[] = [];
      if (virtualMpo) errors.push({ path: 'formula', code: 'formula_required', message: 'A meter of the virtual MPO needs a formula.' });
      if (command.grid) errors.push({ path: 'grid', code: 'grid_requires_formula', message: 'Only a virtual meter can stand for the grid.' });
      if (errors.length > 0) throw new ValidationError(errors);
      return { id, components: null };
    }
    return { id, components: await this.checkVirtual(actor, command, id, virtualMpo) };
  }

  private async checkVirtual(actor: Actor, command: MeterCommand, id: string, virtualMpo: boolean): Promise<FormulaComponent[]> {
    const { meters, customers } = this.deps;
    const parsed = parseFormula(command.formula);
    const errors: FieldError[] = parsed.ok ? [] : [...parsed.errors];
    if (!virtualMpo) errors.push({ path: 'mpoId', code: 'virtual_mpo_required', message: 'A virtual meter names the virtual MPO (channel pseudo, provider virtual).' });
    if (command.measuring !== 'load_profile_accurate') {
      errors.push({ path: 'measuring', code: 'virtual_meter_measuring', message: 'A virtual meter measures load_profile_accurate.' });
    }
    if (!parsed.ok || errors.length > 0) throw new ValidationError(errors);
    const formula = parsed.formula;
    const meterIds = referencedMeterIds(formula);
    const customerIds = referencedCustomerIds(formula);
    const found = new Map((await meters.findByIds(actor.accountId, meterIds)).map((m) => [m.id, m]));
    const foundCustomers = new Set((await customers.findByIds(actor.accountId, customerIds)).map((c) => c.id));
    assertReferences(
      formula.flatMap((component, index) => {
        if (component.type === 'meter') return [{ path: `formula[${index}].meterId`, resource: 'meter', id: component.meterId, exists: found.has(component.meterId) }];
        if (component.type === 'aggregation' && component.customerId) {
          return [{ path: `formula[${index}].customerId`, resource: 'customer', id: component.customerId, exists: foundCustomers.has(component.customerId) }];
        }
        return [];
      }),
    );
    const otherSite = formula.flatMap((c, index) =>
      c.type === 'meter' && found.get(c.meterId)!.siteId !== command.siteId
        ? [{ path: `formula[${index}].meterId`, code: 'formula_meter_other_site', message: 'A formula names meters of its own site only.' }]
        : [],
    );
    if (otherSite.length > 0) throw new ValidationError(otherSite);
    const virtuals = new Map((await meters.virtualMetersOfSite(actor.accountId, command.siteId)).map((m) => [m.id, referencedMeterIds(m.formula ?? [])]));
    virtuals.set(id, meterIds);
    const cycle = findCycle(id, (meterId) => virtuals.get(meterId) ?? []);
    if (cycle) throw new ValidationError([{ path: 'formula', code: 'formula_cycle', message: `The formula refers back to itself: ${cycle.join(' -> ')}.` }]);
    if (command.grid) {
      const grid = await meters.findGridMeter(actor.accountId, command.siteId);
      if (grid && grid.id !== id) throw new ConflictError('grid_meter_exists', `The site already has its grid meter: ${grid.id}.`);
    }
    return formula;
  }

  private async presentAll(actor: Actor, meters: Meter[]): Promise<MeterView[]> {
    const values = await this.deps.attributes.presenter(actor.accountId, 'meter');
    return meters.map((meter) => present(meter, values));
  }
}
