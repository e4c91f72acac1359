import type { CustomAttributeDefinition, CustomAttributeEntity } from '../domain/custom-attributes/custom-attribute.js';
import type { ResourceRepository } from '../resource.repository.js';

export interface CustomAttributeRepository extends ResourceRepository<CustomAttributeDefinition, { entity?: CustomAttributeEntity }> {
  /** Definitions of one entity kind, in creation order. */
  definitionsOf(accountId: string, entity: CustomAttributeEntity): Promise<CustomAttributeDefinition[]>;
  isNameTaken(accountId: string, entity: CustomAttributeEntity, name: string): Promise<boolean>;
  /** Whether any record of the entity holds a value under this name. */
  hasValues(accountId: string, entity: CustomAttributeEntity, name: string): Promise<boolean>;
}
