import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../clock.js';
import type { CustomAttributesService, PresentValues } from '../../custom-attributes/custom-attributes.service.js';
import { formatMicros, parseMicros } from '../../domain/billing/money.js';
import { Price, PriceComponent, PriceComponentGroup } from '../../domain/billing/price.js';
import { ConflictError } from '../../errors.js';
import { mergeUpdate } from '../../patching.js';
import type { ProductRepository } from '../../products/products.service.js';
import { assertReferences } from '../../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../../resource.service.js';
import type { OutdatedDraftRepository } from '../invoices/outdated-drafts.repository.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import { parseInput } from '../../validation.js';
import {
  createPriceCommand,
  createPriceComponentCommand,
  createPriceComponentGroupCommand,
  listPriceComponentGroupsQuery,
  listPriceComponentsQuery,
  listPricesQuery,
  updatePriceCommand,
  updatePriceComponentCommand,
  updatePriceComponentGroupCommand,
  type PriceComponentGroupView,
  type PriceComponentView,
  type PriceView,
} from './price-catalogue.commands.js';
import type { PriceComponentGroupRepository, PriceComponentRepository, PriceRepository } from './price-catalogue.repository.js';
import type { TaxRateRepository } from './tax-rates.service.js';

export interface PriceCatalogueDependencies {
  priceGroups: PriceComponentGroupRepository;
  priceComponents: PriceComponentRepository;
  prices: PriceRepository;
  products: ProductRepository;
  taxRates: TaxRateRepository;
  outdatedDrafts: OutdatedDraftRepository;
  attributes: CustomAttributesService;
  uow: UnitOfWork;
  clock: Clock;
}

const exists = async (found: Promise<unknown[]>) => (await found).length > 0;

/** The products of these price component groups: a change to one of their components or prices reaches those products' drafts. */
async function productsOfGroups(deps: PriceCatalogueDependencies, accountId: string, groupIds: readonly string[]): Promise<string[]> {
  return (await deps.priceGroups.findByIds(accountId, [...new Set(groupIds)])).map((group) => group.electricityProductId);
}

/** The products of these price components (`productsOfGroups`). */
async function productsOfComponents(deps: PriceCatalogueDependencies, accountId: string, componentIds: readonly string[]): Promise<string[]> {
  const components = await deps.priceComponents.findByIds(accountId, [...new Set(componentIds)]);
  return productsOfGroups(deps, accountId, components.map((component) => component.priceComponentGroupId));
}

function presentGroup(group: PriceComponentGroup): PriceComponentGroupView {
  const { id, electricityProductId, name, position } = group;
  return { id, electricityProductId, name, position, ...timestampsOf(group) };
}

function presentComponent(component: PriceComponent, values: PresentValues): PriceComponentView {
  const { id, priceComponentGroupId, name, kind, unit, category, taxRateId } = component;
  return { id, priceComponentGroupId, name, kind, unit, category, taxRateId, customAttributes: values(component.customAttributes), ...timestampsOf(component) };
}

function presentPrice(price: Price): PriceView {
  return { id: price.id, priceComponentId: price.priceComponentId, validFrom: price.validFrom, amount: formatMicros(BigInt(price.amount)), ...timestampsOf(price) };
}

/** Price component groups of an electricity product. */
export class PriceComponentGroupsService implements ResourceService<PriceComponentGroupView> {
  constructor(private readonly deps: PriceCatalogueDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PriceComponentGroupView> {
    const command = parseInput(createPriceComponentGroupCommand, input);
    return this.deps.uow.transactional(async () => {
      await this.checkProduct(actor, command.electricityProductId);
      const now = this.deps.clock.now();
      const group = Object.assign(new PriceComponentGroup(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      this.deps.priceGroups.add(group);
      return presentGroup(group);
    });
  }

  async get(actor: Actor, id: string): Promise<PriceComponentGroupView> {
    return presentGroup(await loadOwned(this.deps.priceGroups, actor, 'price_component_group', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PriceComponentGroupView>> {
    return listPage(this.deps.priceGroups, actor, listPriceComponentGroupsQuery, query, (items) => items.map(presentGroup));
  }

  async listByProducts(actor: Actor, productIds: readonly string[]): Promise<PriceComponentGroupView[]> {
    return (await this.deps.priceGroups.findByProductIds(actor.accountId, productIds)).map(presentGroup);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PriceComponentGroupView> {
    return this.deps.uow.transactional(async () => {
      const group = await loadOwned(this.deps.priceGroups, actor, 'price_component_group', id);
      const { merged } = mergeUpdate({ current: presentGroup(group), patch, patchSchema: updatePriceComponentGroupCommand, createSchema: createPriceComponentGroupCommand });
      await this.checkProduct(actor, merged.electricityProductId);
      await this.deps.outdatedDrafts.markOfProducts(actor.accountId, [group.electricityProductId, merged.electricityProductId]);
      Object.assign(group, { ...merged, updatedAt: this.deps.clock.now() });
      return presentGroup(group);
    });
  }

  private async checkProduct(actor: Actor, productId: string): Promise<void> {
    assertReferences([{ path: 'electricityProductId', resource: 'electricity product', id: productId, exists: await exists(this.deps.products.findByIds(actor.accountId, [productId])) }]);
  }
}

/** Price components: what is charged, per which unit, under which tax rate. */
export class PriceComponentsService implements ResourceService<PriceComponentView> {
  constructor(private readonly deps: PriceCatalogueDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PriceComponentView> {
    const command = parseInput(createPriceComponentCommand, input);
    return this.deps.uow.transactional(async () => {
      const customAttributes = await this.check(actor, command);
      const now = this.deps.clock.now();
      const component = Object.assign(new PriceComponent(), { id: randomUUID(), accountId: actor.accountId, ...command, customAttributes, createdAt: now, updatedAt: now });
      this.deps.priceComponents.add(component);
      await this.deps.outdatedDrafts.markOfProducts(actor.accountId, await productsOfGroups(this.deps, actor.accountId, [component.priceComponentGroupId]));
      return presentComponent(component, await this.deps.attributes.presenter(actor.accountId, 'price_component'));
    });
  }

  async get(actor: Actor, id: string): Promise<PriceComponentView> {
    return (await this.presentAll(actor, [await loadOwned(this.deps.priceComponents, actor, 'price_component', id)]))[0]!;
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PriceComponentView>> {
    return listPage(this.deps.priceComponents, actor, listPriceComponentsQuery, query, (items) => this.presentAll(actor, items));
  }

  async listByGroups(actor: Actor, groupIds: readonly string[]): Promise<PriceComponentView[]> {
    return this.presentAll(actor, await this.deps.priceComponents.findByGroupIds(actor.accountId, groupIds));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PriceComponentView> {
    return this.deps.uow.transactional(async () => {
      const component = await loadOwned(this.deps.priceComponents, actor, 'price_component', id);
      const values = await this.deps.attributes.presenter(actor.accountId, 'price_component');
      const { merged } = mergeUpdate({
        current: presentComponent(component, values),
        patch,
        patchSchema: updatePriceComponentCommand,
        createSchema: createPriceComponentCommand,
        adjust: (next, changes) => {
          if (changes.kind !== undefined && changes.unit === undefined) delete next.unit;
        },
      });
      const customAttributes = await this.check(actor, merged);
      const products = await productsOfGroups(this.deps, actor.accountId, [component.priceComponentGroupId, merged.priceComponentGroupId]);
      await this.deps.outdatedDrafts.markOfProducts(actor.accountId, products);
      Object.assign(component, { ...merged, customAttributes, updatedAt: this.deps.clock.now() });
      return presentComponent(component, values);
    });
  }

  private async check(actor: Actor, command: z.output<typeof createPriceComponentCommand>): Promise<Record<string, unknown>> {
    const { priceGroups, taxRates, attributes } = this.deps;
    assertReferences([
      { path: 'priceComponentGroupId', resource: 'price component group', id: command.priceComponentGroupId, exists: await exists(priceGroups.findByIds(actor.accountId, [command.priceComponentGroupId])) },
      { path: 'taxRateId', resource: 'tax rate', id: command.taxRateId, exists: await exists(taxRates.findByIds(actor.accountId, [command.taxRateId])) },
    ]);
    return attributes.checkValues(actor.accountId, 'price_component', command.customAttributes);
  }

  private async presentAll(actor: Actor, components: PriceComponent[]): Promise<PriceComponentView[]> {
    const values = await this.deps.attributes.presenter(actor.accountId, 'price_component');
    return components.map((component) => presentComponent(component, values));
  }
}

/** Prices: `validFrom` versions of a component's net unit price, one per date (409 otherwise). */
export class PricesService implements ResourceService<PriceView> {
  constructor(private readonly deps: PriceCatalogueDependencies) {}

  async create(actor: Actor, input: unknown): Promise<PriceView> {
    const command = parseInput(createPriceCommand, input);
    return this.deps.uow.transactional(async () => {
      const now = this.deps.clock.now();
      const price = Object.assign(new Price(), { id: randomUUID(), accountId: actor.accountId, ...command, amount: parseMicros(command.amount)!, createdAt: now, updatedAt: now });
      await this.check(actor, price);
      this.deps.prices.add(price);
      await this.deps.outdatedDrafts.markOfProducts(actor.accountId, await productsOfComponents(this.deps, actor.accountId, [price.priceComponentId]));
      return presentPrice(price);
    });
  }

  async get(actor: Actor, id: string): Promise<PriceView> {
    return presentPrice(await loadOwned(this.deps.prices, actor, 'price', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<PriceView>> {
    return listPage(this.deps.prices, actor, listPricesQuery, query, (items) => items.map(presentPrice));
  }

  async listByComponents(actor: Actor, componentIds: readonly string[]): Promise<PriceView[]> {
    return (await this.deps.prices.findByComponentIds(actor.accountId, componentIds)).map(presentPrice);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<PriceView> {
    return this.deps.uow.transactional(async () => {
      const price = await loadOwned(this.deps.prices, actor, 'price', id);
      const { merged } = mergeUpdate({ current: presentPrice(price), patch, patchSchema: updatePriceCommand, createSchema: createPriceCommand });
      const next = Object.assign(new Price(), price, { ...merged, amount: parseMicros(merged.amount)! });
      const changed = String(next.amount) !== String(price.amount) || next.validFrom !== price.validFrom || next.priceComponentId !== price.priceComponentId;
      // Marking first waits for a bill-run batch issuing drafts that bill this price, so that the check sees them issued.
      await this.deps.outdatedDrafts.markOfProducts(actor.accountId, await productsOfComponents(this.deps, actor.accountId, [price.priceComponentId, next.priceComponentId]));
      if (changed && (await this.deps.prices.isUsedByIssuedInvoice(actor.accountId, price.id))) {
        throw new ConflictError('price_in_use', 'An issued invoice billed this price, so it cannot change; add a price with a new validFrom instead.');
      }
      await this.check(actor, next);
      Object.assign(price, { ...merged, amount: next.amount, updatedAt: this.deps.clock.now() });
      return presentPrice(price);
    });
  }

  private async check(actor: Actor, price: Price): Promise<void> {
    const { priceComponents, prices } = this.deps;
    const componentExists = await exists(priceComponents.findByIds(actor.accountId, [price.priceComponentId]));
    assertReferences([{ path: 'priceComponentId', resource: 'price component', id: price.priceComponentId, exists: componentExists }]);
    if (await prices.isValidFromTaken(actor.accountId, price.priceComponentId, price.validFrom, price.id)) {
      throw new ConflictError('price_exists', `The component already has a price from ${price.validFrom}; change that one or pick another date.`);
    }
  }
}
