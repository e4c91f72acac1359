import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { assertCanWrite, type Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { mergePatch } from '../domain/merge-patch.js';
import { presentAddress } from '../domain/addresses/address.js';
import { resolutionOf, Site } from '../domain/sites/site.js';
import { NotFoundError } from '../errors.js';
import { pageQuery } from '../pagination.js';
import { isUuid, stripReadOnly } from '../read-only-fields.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { SiteRepository } from './sites.repository.js';
import { createSiteCommand, removedSiteFields, updateSiteCommand, type siteView } from './sites.commands.js';

export type SiteView = z.output<typeof siteView>;

export function presentSite(site: Site): SiteView {
  return {
    id: site.id,
    name: site.name,
    type: site.type,
    balanceResolution: site.balanceResolution,
    address: presentAddress(site.address),
    customAttributes: site.customAttributes,
    createdAt: site.createdAt.toISOString(),
    updatedAt: site.updatedAt.toISOString(),
  };
}

export class SitesService {
  constructor(
    private readonly sites: SiteRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async createSite(actor: Actor, input: unknown): Promise<SiteView> {
    assertCanWrite(actor);
    const command = parseInput(createSiteCommand, input, { removed: removedSiteFields });
    return this.uow.transactional(async () => {
      const now = this.clock.now();
      const site = Object.assign(new Site(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      this.sites.add(site);
      return presentSite(site);
    });
  }

  async getSite(actor: Actor, id: string): Promise<SiteView> {
    return presentSite(await this.load(actor, id));
  }

  async listSites(actor: Actor, query: unknown): Promise<{ data: SiteView[]; total: number }> {
    const page = parseInput(pageQuery, query, { unknownCode: 'unknown_parameter' });
    const { items, total } = await this.sites.list(actor.accountId, page);
    return { data: items.map(presentSite), total };
  }

  async updateSite(actor: Actor, id: string, patch: unknown): Promise<SiteView> {
    assertCanWrite(actor);
    return this.uow.transactional(async () => {
      const site = await this.load(actor, id);
      const current = presentSite(site);
      const parsed = parseInput(updateSiteCommand, patch, { removed: removedSiteFields });
      const changes = stripReadOnly(parsed, current, ['id', 'createdAt', 'updatedAt']);
      const { name, type, balanceResolution, address, customAttributes } = current;
      const merged = mergePatch({ name, type, balanceResolution, address, customAttributes }, changes) as Record<string, unknown>;
      if (changes.type !== undefined && changes.balanceResolution === undefined) merged.balanceResolution = resolutionOf(parsed.type!);
      Object.assign(site, parseInput(createSiteCommand, merged), { updatedAt: this.clock.now() });
      return presentSite(site);
    });
  }

  private async load(actor: Actor, id: string): Promise<Site> {
    const site = isUuid(id) ? await this.sites.findById(actor.accountId, id) : null;
    if (!site) throw new NotFoundError('site', id);
    return site;
  }
}
