import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { AccountCache } from '../caching/account-cache.js';
import type { Clock } from '../clock.js';
import {
  checkValues,
  CustomAttributeDefinition,
  storedValues,
  withDefaults,
  type CustomAttributeEntity,
  type CustomAttributeValues,
} from '../domain/custom-attributes/custom-attribute.js';
import { ConflictError, ValidationError } from '../errors.js';
import { mergeUpdate } from '../patching.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../resource.service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { parseInput } from '../validation.js';
import {
  createCustomAttributeCommand,
  listCustomAttributesQuery,
  updateCustomAttributeCommand,
  type CustomAttributeView,
} from './custom-attributes.commands.js';
import type { CustomAttributeRepository } from './custom-attributes.repository.js';

export type PresentValues = (values: CustomAttributeValues) => CustomAttributeValues;

function present(definition: CustomAttributeDefinition): CustomAttributeView {
  const { id, title, name, entity, type } = definition;
  return { id, title, name, entity, type, ...timestampsOf(definition) };
}

export class CustomAttributesService implements ResourceService<CustomAttributeView> {
  constructor(
    private readonly definitions: CustomAttributeRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly names: AccountCache<readonly string[]>,
  ) {}

  async create(actor: Actor, input: unknown): Promise<CustomAttributeView> {
    const command = parseInput(createCustomAttributeCommand, input);
    return this.uow.transactional(async () => {
      if (await this.definitions.isNameTaken(actor.accountId, command.entity, command.name)) {
        throw new ConflictError('custom_attribute_exists', `A ${command.entity} attribute named "${command.name}" exists.`);
      }
      const now = this.clock.now();
      const definition = Object.assign(new CustomAttributeDefinition(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      this.definitions.add(definition);
      return present(definition);
    });
  }

  async get(actor: Actor, id: string): Promise<CustomAttributeView> {
    return present(await loadOwned(this.definitions, actor, 'custom_attribute', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<CustomAttributeView>> {
    return listPage(this.definitions, actor, listCustomAttributesQuery, query, (items) => items.map(present));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<CustomAttributeView> {
    return this.uow.transactional(async () => {
      const definition = await loadOwned(this.definitions, actor, 'custom_attribute', id);
      const { merged } = mergeUpdate({
        current: present(definition),
        patch,
        patchSchema: updateCustomAttributeCommand,
        createSchema: createCustomAttributeCommand,
        readOnly: ['name', 'entity'],
      });
      if (merged.type !== definition.type && (await this.definitions.hasValues(actor.accountId, definition.entity, definition.name))) {
        throw new ConflictError('custom_attribute_in_use', `Records hold values of "${definition.name}"; its type cannot change.`);
      }
      Object.assign(definition, { title: merged.title, type: merged.type, updatedAt: this.clock.now() });
      return present(definition);
    });
  }

  /** Validates values for a record; returns what to store. Errors name `customAttributes.<key>`. */
  async checkValues(accountId: string, entity: CustomAttributeEntity, values: CustomAttributeValues): Promise<CustomAttributeValues> {
    const problems = checkValues(await this.definitions.definitionsOf(accountId, entity), values);
    if (problems.length > 0) {
      throw new ValidationError(problems.map((p) => ({ path: `customAttributes.${p.key}`, code: p.code, message: p.message })));
    }
    return storedValues(values);
  }

  /** One lookup of the names (answered from memory while the change feed is live), then every record shows every key (null by default). */
  async presenter(accountId: string, entity: CustomAttributeEntity): Promise<PresentValues> {
    const names = await this.names.get(accountId, entity, async () => (await this.definitions.definitionsOf(accountId, entity)).map((d) => d.name));
    return (values) => withDefaults(names, values);
  }
}
