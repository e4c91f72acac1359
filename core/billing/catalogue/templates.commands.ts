import { z } from 'zod';
import { TEMPLATE_KINDS, TEMPLATE_LOCALES } from '../../domain/billing/template.js';
import { readOnlyEcho, timestamps } from '../../field-formats.js';
import { pageQuery } from '../../pagination.js';
import type { RemovedField } from '../../validation.js';

const text = (max: number) => z.string().trim().min(1).max(max).nullish().transform((v) => v ?? null);

const templateFields = {
  name: z.string().trim().min(1).max(200),
  kind: z.enum(TEMPLATE_KINDS),
  locale: z.enum(TEMPLATE_LOCALES),
  subject: text(200),
  introText: text(5000),
  closingText: text(5000),
  footerText: text(5000),
  isDefault: z.boolean(),
};

export const createTemplateCommand = z
  .object({ ...templateFields, isDefault: templateFields.isDefault.default(false) })
  .strict()
  .meta({ id: 'CreateTemplateInput' });
export const updateTemplateCommand = z.object({ ...readOnlyEcho, ...templateFields }).partial().strict().meta({ id: 'UpdateTemplateInput' });
export const listTemplatesQuery = pageQuery.extend({ kind: z.enum(TEMPLATE_KINDS).optional() }).strict();
export const removedTemplateFields: RemovedField[] = [{ path: ['values'], replacement: 'the template fields; read the whole template with GET /v1/templates/{id}' }];

export const templateView = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
  locale: z.enum(TEMPLATE_LOCALES),
  subject: z.string().nullable(),
  introText: z.string().nullable(),
  closingText: z.string().nullable(),
  footerText: z.string().nullable(),
  isDefault: z.boolean(),
  ...timestamps,
}).meta({ id: 'Template' });
export type TemplateView = z.output<typeof templateView>;
