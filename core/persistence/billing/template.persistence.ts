import { defineEntity, p } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateRepository } from '../../billing/catalogue/templates.service.js';
import { Template, type TemplateKind } from '../../domain/billing/template.js';
import { AccountScopedRepository } from '../account-scoped.repository.js';
import { accountKey } from '../tenant-keys.js';

export const TemplateEntity = defineEntity({
  class: Template,
  tableName: 'templates',
  indexes: [{ properties: ['accountId', 'createdAt', 'id'] }],
  // One default per kind, checked at commit so that moving the default may write either row first.
  checks: [{ name: 'templates_one_default_per_kind', expression: 'EXCLUDE USING gist (account_id WITH =, kind WITH =) WHERE (is_default) DEFERRABLE INITIALLY DEFERRED' }],
  properties: {
    accountId: accountKey,
    id: p.uuid().primary(),
    name: p.string().length(200),
    kind: p.string().length(16),
    locale: p.string().length(8),
    subject: p.string().length(200).nullable(),
    introText: p.text().nullable(),
    closingText: p.text().nullable(),
    footerText: p.text().nullable(),
    isDefault: p.boolean(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class MikroTemplateRepository extends AccountScopedRepository<Template, { kind?: TemplateKind }> implements TemplateRepository {
  constructor(em: EntityManager) {
    super(em, TemplateEntity);
  }

  async defaultOf(accountId: string, kind: TemplateKind): Promise<Template> {
    return (await this.em.findOne(TemplateEntity, { accountId, kind, isDefault: true }))!;
  }

  async clearDefault(accountId: string, kind: TemplateKind, exceptId: string): Promise<void> {
    const current = await this.em.find(TemplateEntity, { accountId, kind, isDefault: true, id: { $ne: exceptId } });
    for (const template of current) template.isDefault = false;
  }
}
