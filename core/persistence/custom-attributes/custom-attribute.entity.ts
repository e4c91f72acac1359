import { defineEntity, p } from '@mikro-orm/core';
import { CustomAttributeDefinition } from '../../domain/custom-attributes/custom-attribute.js';
import { changeTrigger } from '../change-triggers.js';
import { accountKey } from '../tenant-keys.js';

export const CustomAttributeEntity = defineEntity({
  class: CustomAttributeDefinition,
  tableName: 'custom_attributes',
  triggers: [changeTrigger('custom_attributes', 'custom_attributes', ['insert', 'update', 'delete'], ['name', 'entity', 'account_id'])],
  uniques: [{ properties: ['accountId', 'entity', 'name'] }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    title: p.string().length(200),
    name: p.string().length(63),
    entity: p.string().length(32),
    type: p.string().length(16),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});
