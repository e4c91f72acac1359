import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { firstDayOverOne, MeterBalancingSetting, periodsRebalanced } from '../domain/balancing/balancing-setting.js';
import { formatDecimal, parseDecimal } from '../domain/billing/money.js';
import { isVirtual } from '../domain/meters/meter.js';
import { findOverlap, periodsOverlap } from '../domain/periods.js';
import { isBalanced, type Site } from '../domain/sites/site.js';
import { calendarDateOf } from '../domain/time/calendar-date.js';
import { ConflictError, ValidationError, type FieldError } from '../errors.js';
import type { MeterRepository } from '../meters/meters.repository.js';
import { mergeUpdate } from '../patching.js';
import { assertReferences } from '../references.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { SiteRepository } from '../sites/sites.repository.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import type { BalancingSettingRepository } from './balancing-settings.repository.js';
import type { BalancingService } from './balancing.service.js';
import {
  createBalancingSettingCommand,
  listBalancingSettingsQuery,
  removedBalancingSettingFields,
  updateBalancingSettingCommand,
  type BalancingSettingView,
} from './balancing-settings.commands.js';

type SettingCommand = z.output<typeof createBalancingSettingCommand>;

function present(setting: MeterBalancingSetting): BalancingSettingView {
  const { id, siteId, meterId, balancing, startDate, endDate, priority, shareMicros } = setting;
  const share = shareMicros === null ? null : formatDecimal(BigInt(shareMicros), 6);
  return { id, siteId, meterId, balancing, startDate, endDate, priority, share, ...timestampsOf(setting) };
}

/** The setting's fields from a command: the share in millionths. */
function termsOf({ share, ...command }: SettingCommand) {
  return { ...command, shareMicros: share === null ? null : Number(parseDecimal(share, 6)) };
}

export interface BalancingSettingDependencies {
  settings: BalancingSettingRepository;
  sites: SiteRepository;
  meters: MeterRepository;
  accounts: AccountRepository;
  /** What balancing does about a changed setting. */
  rebalancing: Pick<BalancingService, 'rebalance' | 'schedule'>;
  uow: UnitOfWork;
  clock: Clock;
}

/** Which meters take part in a balanced site's sharing, from when, in which priority tier, with which static share. */
export class BalancingSettingsService implements ResourceService<BalancingSettingView> {
  constructor(private readonly deps: BalancingSettingDependencies) {}

  async create(actor: Actor, input: unknown): Promise<BalancingSettingView> {
    const terms = termsOf(parseInput(createBalancingSettingCommand, input, { removed: removedBalancingSettingFields }));
    const { settings, uow, clock, rebalancing } = this.deps;
    const view = await uow.transactional(async () => {
      const id = randomUUID();
      const site = await this.checkSetting(actor, terms, id);
      await rebalancing.rebalance(actor.accountId, site.id, periodsRebalanced(null, terms, site.allocationKeys));
      const now = clock.now();
      const setting = Object.assign(new MeterBalancingSetting(), { id, accountId: actor.accountId, ...terms, createdAt: now, updatedAt: now });
      settings.add(setting);
      return present(setting);
    });
    await rebalancing.schedule(actor.accountId, [view.siteId]);
    return view;
  }

  async get(actor: Actor, id: string): Promise<BalancingSettingView> {
    return present(await loadOwned(this.deps.settings, actor, 'meter_balancing_setting', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<BalancingSettingView>> {
    return listPage(this.deps.settings, actor, listBalancingSettingsQuery, query, (items) => items.map(present));
  }

  async listBySites(actor: Actor, siteIds: readonly string[]): Promise<BalancingSettingView[]> {
    return (await this.deps.settings.findBySiteIds(actor.accountId, siteIds)).map(present);
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<BalancingSettingView> {
    const { settings, uow, clock, rebalancing } = this.deps;
    const siteIds = new Set<string>();
    const view = await uow.transactional(async () => {
      const setting = await loadOwned(settings, actor, 'meter_balancing_setting', id);
      const { merged } = mergeUpdate({
        current: present(setting),
        patch,
        patchSchema: updateBalancingSettingCommand,
        createSchema: createBalancingSettingCommand,
        removed: removedBalancingSettingFields,
      });
      const terms = termsOf(merged);
      const site = await this.checkSetting(actor, terms, id);
      if (site.id === setting.siteId) {
        await rebalancing.rebalance(actor.accountId, site.id, periodsRebalanced(setting, terms, site.allocationKeys));
      } else {
        // Moved to another site: it leaves the one and joins the other.
        await rebalancing.rebalance(actor.accountId, setting.siteId, [{ startDate: setting.startDate, endDate: setting.endDate }]);
        await rebalancing.rebalance(actor.accountId, site.id, periodsRebalanced(null, terms, site.allocationKeys));
      }
      siteIds.add(setting.siteId).add(site.id);
      Object.assign(setting, { ...terms, updatedAt: clock.now() });
      return present(setting);
    });
    await rebalancing.schedule(actor.accountId, [...siteIds]);
    return view;
  }

  /** Checks the setting against its site, meter and the site's other settings; answers the site, locked. */
  private async checkSetting(actor: Actor, command: ReturnType<typeof termsOf>, id: string): Promise<Site> {
    const { settings, sites, meters, accounts } = this.deps;
    const [site] = await sites.findByIds(actor.accountId, [command.siteId]);
    const [meter] = await meters.findByIds(actor.accountId, [command.meterId]);
    assertReferences([
      { path: 'siteId', resource: 'site', id: command.siteId, exists: Boolean(site) },
      { path: 'meterId', resource: 'meter', id: command.meterId, exists: Boolean(meter) },
    ]);
    const timezone = (await accounts.findAccount(actor.accountId))!.timezone;
    const meterStart = calendarDateOf(meter!.startDate, timezone);
    const errors: FieldError[] = [];
    if (!isBalanced(site!.type)) errors.push({ path: 'siteId', code: 'site_not_balanced', message: `A ${site!.type} site is not balanced.` });
    if (meter!.siteId !== site!.id) errors.push({ path: 'meterId', code: 'meter_not_on_site', message: 'The meter is not on this site.' });
    if (isVirtual(meter!)) errors.push({ path: 'meterId', code: 'virtual_meter_not_allowed', message: 'Virtual meters do not take part in balancing.' });
    if (command.startDate < meterStart) errors.push({ path: 'startDate', code: 'starts_before_meter', message: `The meter starts on ${meterStart}.` });
    if (errors.length > 0) throw new ValidationError(errors);
    await meters.lock(actor.accountId, command.meterId);
    const overlap = findOverlap({ ...command, id }, await settings.settingsOfMeter(actor.accountId, command.meterId));
    if (overlap) throw new ConflictError('balancing_setting_overlaps', `The meter already has setting ${overlap.id} from ${overlap.startDate}.`);
    await sites.lock(actor.accountId, site!.id);
    const others = (await settings.findBySiteIds(actor.accountId, [site!.id])).filter((other) => other.id !== id && periodsOverlap(other, command));
    const over = firstDayOverOne(command, others);
    if (over) {
      throw new ConflictError('shares_exceed_one', `On ${over.day} the shares of the site's settings would sum to ${formatDecimal(BigInt(over.sumMicros), 6)}; they sum to at most 1.`);
    }
    return site!;
  }
}
