import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { CustomAttributesService, PresentValues } from '../custom-attributes/custom-attributes.service.js';
import { presentAddress } from '../domain/addresses/address.js';
import { resolutionOf, Site, type SiteType } from '../domain/sites/site.js';
import { deleteUnreferenced } from '../deletion.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import { causedBy, type EventOutbox } from '../events/outbox.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { SiteRepository } from './sites.repository.js';
import { createSiteCommand, listSitesQuery, removedSiteFields, updateSiteCommand, type siteView } from './sites.commands.js';

export type SiteView = z.output<typeof siteView>;

function present(site: Site, values: PresentValues): SiteView {
  return {
    id: site.id,
    name: site.name,
    type: site.type,
    balanceResolution: site.balanceResolution,
    address: presentAddress(site.address),
    customAttributes: values(site.customAttributes),
    ...timestampsOf(site),
  };
}

export class SitesService implements ResourceService<SiteView> {
  constructor(
    private readonly sites: SiteRepository,
    private readonly attributes: CustomAttributesService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  async create(actor: Actor, input: unknown): Promise<SiteView> {
    const command = parseInput(createSiteCommand, input, { removed: removedSiteFields });
    return this.uow.transactional(async () => {
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'site', command.customAttributes);
      const now = this.clock.now();
      const site = Object.assign(new Site(), { id: randomUUID(), accountId: actor.accountId, ...command, customAttributes, createdAt: now, updatedAt: now });
      this.sites.add(site);
      const view = present(site, await this.attributes.presenter(actor.accountId, 'site'));
      await this.outbox.record([{ ...causedBy(actor), type: 'site.created', entityId: view.id, data: view, siteIds: [site.id] }]);
      return view;
    });
  }

  async get(actor: Actor, id: string): Promise<SiteView> {
    return (await this.presentAll(actor, [await loadOwned(this.sites, actor, 'site', id)]))[0]!;
  }

  async getMany(actor: Actor, ids: readonly string[]): Promise<SiteView[]> {
    return this.presentAll(actor, await this.sites.findByIds(actor.accountId, ids));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<SiteView>> {
    return listPage(this.sites, actor, listSitesQuery, query, (items) => this.presentAll(actor, items));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<SiteView> {
    return this.uow.transactional(async () => {
      const site = await loadOwned(this.sites, actor, 'site', id);
      const values = await this.attributes.presenter(actor.accountId, 'site');
      const { merged } = mergeUpdate({
        current: present(site, values),
        patch,
        patchSchema: updateSiteCommand,
        createSchema: createSiteCommand,
        removed: removedSiteFields,
        adjust: (next, changes) => {
          if (changes.type !== undefined && changes.balanceResolution === undefined) next.balanceResolution = resolutionOf(changes.type as SiteType);
        },
      });
      const customAttributes = await this.attributes.checkValues(actor.accountId, 'site', merged.customAttributes);
      Object.assign(site, { ...merged, customAttributes, updatedAt: this.clock.now() });
      const view = present(site, values);
      await this.outbox.record([{ ...causedBy(actor), type: 'site.updated', entityId: view.id, data: view, siteIds: [site.id] }]);
      return view;
    });
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
