import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AccountRepository } from '../accounts/accounts.repository.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { MeterBalancingSetting } from '../domain/balancing/balancing-setting.js';
import { isVirtual } from '../domain/meters/meter.js';
import { findOverlap } from '../domain/periods.js';
import { isBalanced } from '../domain/sites/site.js';
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
import {
  createBalancingSettingCommand,
  listBalancingSettingsQuery,
  removedBalancingSettingFields,
  updateBalancingSettingCommand,
  type BalancingSettingView,
} from './balancing-settings.commands.js';

function present(setting: MeterBalancingSetting): BalancingSettingView {
  const { id, siteId, meterId, balancing, startDate, endDate, priority } = setting;
  return { id, siteId, meterId, balancing, startDate, endDate, priority, ...timestampsOf(setting) };
}

export interface BalancingSettingDependencies {
  settings: BalancingSettingRepository;
  sites: SiteRepository;
  meters: MeterRepository;
  accounts: AccountRepository;
  uow: UnitOfWork;
  clock: Clock;
}

/** Which meters take part in a balanced site's sharing, from when, in which priority tier. */
export class BalancingSettingsService implements ResourceService<BalancingSettingView> {
  constructor(private readonly deps: BalancingSettingDependencies) {}

  async create(actor: Actor, input: unknown): Promise<BalancingSettingView> {
    const command = parseInput(createBalancingSettingCommand, input, { removed: removedBalancingSettingFields });
    const { settings, uow, clock } = this.deps;
    return uow.transactional(async () => {
      const id = randomUUID();
      await this.checkSetting(actor, command, id);
      const now = clock.now();
      const setting = Object.assign(new MeterBalancingSetting(), { id, accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      settings.add(setting);
      return present(setting);
    });
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
    const { settings, uow, clock } = this.deps;
    return uow.transactional(async () => {
      const setting = await loadOwned(settings, actor, 'meter_balancing_setting', id);
      const { merged } = mergeUpdate({
        current: present(setting),
        patch,
        patchSchema: updateBalancingSettingCommand,
        createSchema: createBalancingSettingCommand,
        removed: removedBalancingSettingFields,
      });
      await this.checkSetting(actor, merged, id);
      Object.assign(setting, { ...merged, updatedAt: clock.now() });
      return present(setting);
    });
  }

  private async checkSetting(actor: Actor, command: z.output<typeof createBalancingSettingCommand>, id: string): Promise<void> {
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
  }
}
