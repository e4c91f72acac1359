import { randomUUID } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { Clock } from '../../clock.js';
import { DEFAULT_TEMPLATES, Template, type TemplateKind } from '../../domain/billing/template.js';
import { ConflictError } from '../../errors.js';
import { mergeUpdate } from '../../patching.js';
import type { ResourceRepository } from '../../resource.repository.js';
import { listPage, loadOwned, timestampsOf, type ListResult, type ResourceService } from '../../resource.service.js';
import type { UnitOfWork } from '../../unit-of-work.js';
import { parseInput } from '../../validation.js';
import { createTemplateCommand, listTemplatesQuery, removedTemplateFields, updateTemplateCommand, type TemplateView } from './templates.commands.js';

export interface TemplateRepository extends ResourceRepository<Template, { kind?: TemplateKind }> {
  /** Makes every other template of the kind a non-default one. */
  clearDefault(accountId: string, kind: TemplateKind, exceptId: string): Promise<void>;
  /** The account's default of the kind (every account has one). */
  defaultOf(accountId: string, kind: TemplateKind): Promise<Template>;
}

function present(template: Template): TemplateView {
  const { id, name, kind, locale, subject, introText, closingText, footerText, isDefault } = template;
  return { id, name, kind, locale, subject, introText, closingText, footerText, isDefault, ...timestampsOf(template) };
}

/** The default templates of a new account (also written by a migration for older accounts). */
export function defaultTemplates(accountId: string, now: Date): Template[] {
  return DEFAULT_TEMPLATES.map((fields) => Object.assign(new Template(), { id: randomUUID(), accountId, ...fields, isDefault: true, createdAt: now, updatedAt: now }));
}

/** Invoice and credit note templates: exactly one default per kind. */
export class TemplatesService implements ResourceService<TemplateView> {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(actor: Actor, input: unknown): Promise<TemplateView> {
    const command = parseInput(createTemplateCommand, input, { removed: removedTemplateFields });
    return this.uow.transactional(async () => {
      const now = this.clock.now();
      const template = Object.assign(new Template(), { id: randomUUID(), accountId: actor.accountId, ...command, createdAt: now, updatedAt: now });
      if (template.isDefault) await this.templates.clearDefault(actor.accountId, template.kind, template.id);
      this.templates.add(template);
      return present(template);
    });
  }

  async get(actor: Actor, id: string): Promise<TemplateView> {
    return present(await loadOwned(this.templates, actor, 'template', id));
  }

  list(actor: Actor, query: unknown): Promise<ListResult<TemplateView>> {
    return listPage(this.templates, actor, listTemplatesQuery, query, (items) => items.map(present));
  }

  async update(actor: Actor, id: string, patch: unknown): Promise<TemplateView> {
    return this.uow.transactional(async () => {
      const template = await loadOwned(this.templates, actor, 'template', id);
      const { merged } = mergeUpdate({ current: present(template), patch, patchSchema: updateTemplateCommand, createSchema: createTemplateCommand, removed: removedTemplateFields });
      if (template.isDefault && (!merged.isDefault || merged.kind !== template.kind)) {
        throw new ConflictError('default_template_required', `Make another ${template.kind} template the default first; every kind keeps one.`);
      }
      if (merged.isDefault && !template.isDefault) await this.templates.clearDefault(actor.accountId, merged.kind, template.id);
      Object.assign(template, { ...merged, updatedAt: this.clock.now() });
      return present(template);
    });
  }
}
