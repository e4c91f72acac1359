import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { BalancingService } from '../balancing/balancing.service.js';
import type { AccountCache } from '../caching/account-cache.js';
import type { Clock } from '../clock.js';
import type { AllocationKey } from '../domain/balancing/allocation.js';
import type { CustomAttributesService, PresentValues } from '../custom-attributes/custom-attributes.service.js';
import { presentAddress } from '../domain/addresses/address.js';
import { DEFAULT_ALLOCATION_KEY, firstKeyDifference, resolutionOf, Site, withAllocationKey, type SiteType } from '../domain/sites/site.js';
import { calendarDateOf } from '../domain/time/calendar-date.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, timestampsOf, viewsById, type ListResult, type ResourceService } from '../resource.service.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { SiteRepository } from './sites.repository.js';
import { createSiteCommand, listSitesQuery, removedSiteFields, updateSiteCommand, type siteView } from './sites.commands.js';

export type SiteView = z.output<typeof siteView>;

function present(site: Site, values: PresentValues): SiteView {
  const current = site.allocationKeys.at(-1);
  return {
    id: site.id,
    name: site.name,
    type: site.type,
    balanceResolution: site.balanceResolution,
    allocationKey: current?.key ?? DEFAULT_ALLOCATION_KEY,
    allocationKeyValidFrom: current?.validFrom ?? null,
    address: presentAddress(site.address),
    customAttributes: values(site.customAttributes),
    ...timestampsOf(site),
  };
}

/**
 * The dated key a change asks for, null when it names neither field. A validFrom of null stands
 * for the default, the first day of the current month: a key given without a date applies from
 * then, unless it is the key in force already (then its date stays).
 */
function requestedKey(
  current: SiteView,
  merged: { allocationKey?: AllocationKey | null; allocationKeyValidFrom?: string | null },
  changes: Record<string, unknown>,
): { key: AllocationKey; validFrom: string | null } | null {
  if (!('allocationKey' in changes) && !('allocationKeyValidFrom' in changes)) return null;
  const key = merged.allocationKey ?? DEFAULT_ALLOCATION_KEY;
  const keepsDate = 'allocationKeyValidFrom' in changes || key === current.allocationKey;
  return { key, validFrom: keepsDate ? (merged.allocationKeyValidFrom ?? null) : null };
}

/** What balancing does about a change of a site's key. */
export type SiteRebalancing = Pick<BalancingService, 'rebalance' | 'schedule'>;

export class SitesService implements ResourceService<SiteView> {
  constructor(
    private readonly sites: SiteRepository,
    private readonly attributes: CustomAttributesService,
    private readonly accounts: AccountRepository,
    private readonly balancing: SiteRebalancing,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    /** Sites read by id, forgotten when a site or a custom attribute of the account changes. */
    private readonly views: AccountCache<SiteView>,
  ) {}

  async create(actor: Actor, input: unknown): Promise<SiteView> {
    const { allocationKey, allocationKeyValidFrom, ...command } = parseInput(createSiteCommand, input, { removed: removedSiteFields });
    return this.uow.transactional(async () => {
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'site', command.customAttributes);
      const now = this.clock.now();
      const chosen = (allocationKey && allocationKey !== DEFAULT_ALLOCATION_KEY) || allocationKeyValidFrom;
      const allocationKeys = chosen ? [{ key: allocationKey ?? DEFAULT_ALLOCATION_KEY, validFrom: allocationKeyValidFrom ?? (await this.firstOfMonth(actor.accountId)) }] : [];
      const site = Object.assign(new Site(), { id: randomUUID(), accountId: actor.accountId, ...command, allocationKeys, customAttributes, createdAt: now, updatedAt: now });
      this.sites.add(site);
      const view = present(site, await this.attributes.presenter(actor.accountId, 'site'));
      await this.outbox.record([{ ...causedBy(actor), type: 'site.created', entityId: view.id, data: view, siteIds: [site.id] }]);
      return view;
    });
  }

  get(actor: Actor, id: string): Promise<SiteView> {
    return this.views.get(actor.accountId, id, async () => (await this.presentAll(actor, [await loadOwned(this.sites, actor, 'site', id)]))[0]!);
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<SiteView[]> {
    return viewsById(this.views, actor.accountId, ids, async (missing) => this.presentAll(actor, await this.sites.findByIds(actor.accountId, missing)));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<SiteView>> {
    return listPage(this.sites, actor, listSitesQuery, query, (items) => this.presentAll(actor, items));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<SiteView> {
    let rebalanced = false;
    const updated = await this.uow.transactional(async () => {
      const site = await loadOwned(this.sites, actor, 'site', id);
      const values = await this.attributes.presenter(actor.accountId, 'site');
      const current = present(site, values);
      const { merged, changes } = mergeUpdate({
        current,
        patch,
        patchSchema: updateSiteCommand,
        createSchema: createSiteCommand,
        removed: removedSiteFields,
        adjust: (next, changes) => {
          if (changes.type !== undefined && changes.balanceResolution === undefined) next.balanceResolution = resolutionOf(changes.type as SiteType);
        },
      });
      const { allocationKey, allocationKeyValidFrom, ...fields } = merged;
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'site', fields.customAttributes);
      const requested = requestedKey(current, { allocationKey, allocationKeyValidFrom }, changes);
      const allocationKeys = requested
        ? withAllocationKey(site.allocationKeys, requested.key, requested.validFrom ?? (await this.firstOfMonth(actor.accountId)))
        : site.allocationKeys;
      const from = firstKeyDifference(site.allocationKeys, allocationKeys);
      if (from) {
        await this.sites.lock(actor.accountId, site.id);
        await this.balancing.rebalance(actor.accountId, site.id, [{ startDate: from, endDate: null }]);
        rebalanced = true;
      }
      Object.assign(site, { ...fields, allocationKeys, customAttributes, updatedAt: this.clock.now() });
      const view = present(site, values);
      await this.outbox.record([{ ...causedBy(actor), type: 'site.updated', entityId: view.id, data: view, siteIds: [site.id] }]);
      return view;
    });
    if (rebalanced) await this.balancing.schedule(actor.accountId, [id]);
    return updated;
  }

  /** The default validFrom of a key: the first day of the current month in the account timezone. */
  private async firstOfMonth(accountId: string): Promise<string> {
    const { timezone } = (await this.accounts.findAccount(accountId))!;
    return `${calendarDateOf(this.clock.now(), timezone).slice(0, 7)}-01`;
  }

  /** For internal tools (GraphQL): a site nothing refers to. */
  async delete(actor: Actor, id: string): Promise<SiteView> {
    return this.uow.transactional(async () => {
      const site = await loadOwned(this.sites, actor, 'site', id);
      const view = present(site, await this.attributes.presenter(actor.accountId, 'site'));
      await deleteUnreferenced(this.sites, actor, 'site', site);
      await this.outbox.record([{ ...causedBy(actor), type: 'site.deleted', entityId: site.id, data: view, siteIds: [site.id] }]);
      return view;
    });
  }

  private async presentAll(actor: Actor, sites: Site[]): Promise<SiteView[]> {
    const values = await this.attributes.presenter(actor.accountId, 'site');
    return sites.map((site) => present(site, values));
  }
}
