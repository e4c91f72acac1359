import type { EntityManager } from '@mikro-orm/postgresql';
import type { CustomAttributeRepository } from '../../custom-attributes/custom-attributes.repository.js';
import type { CustomAttributeDefinition, CustomAttributeEntity as Entity } from '../../domain/custom-attributes/custom-attribute.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { CustomAttributeEntity } from './custom-attribute.entity.js';

/** Tables whose rows carry a `custom_attributes` jsonb column, per entity kind. */
const TABLES: Record<Entity, string> = {
  site: 'sites',
  customer: 'customers',
  meter: 'meters',
  contract: 'contracts',
  price_component: 'price_components',
};

export class MikroCustomAttributeRepository
  extends AccountScopedRepository<CustomAttributeDefinition, { entity?: Entity }>
  implements CustomAttributeRepository
{
  constructor(em: EntityManager) {
    super(em, CustomAttributeEntity);
  }

  definitionsOf(accountId: string, entity: Entity): Promise<CustomAttributeDefinition[]> {
    return this.em.find(CustomAttributeEntity, { accountId, entity }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  async isNameTaken(accountId: string, entity: Entity, name: string): Promise<boolean> {
    return (await this.em.count(CustomAttributeEntity, { accountId, entity, name })) > 0;
  }

  async hasValues(accountId: string, entity: Entity, name: string): Promise<boolean> {
    const table = TABLES[entity];
    const rows = await this.em.execute(`select 1 from "${table}" where account_id = ? and jsonb_exists(custom_attributes, ?) limit 1`, [accountId, name]);
    return rows.length > 0;
  }
}
