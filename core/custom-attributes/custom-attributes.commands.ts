import { z } from 'zod';
import { CUSTOM_ATTRIBUTE_ENTITIES, CUSTOM_ATTRIBUTE_TYPES } from '../domain/custom-attributes/custom-attribute.js';
import { pageQuery } from '../pagination.js';

/** `customAttributes` in a body: an object; its keys are checked against the definitions. */
export const customAttributesInput = z.record(z.string(), z.unknown());

const definitionFields = {
  title: z.string().trim().min(1).max(200),
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, { message: 'Start with a letter; letters, digits and _ only (at most 63).' }),
  entity: z.enum(CUSTOM_ATTRIBUTE_ENTITIES),
  type: z.enum(CUSTOM_ATTRIBUTE_TYPES),
};

export const createCustomAttributeCommand = z.object(definitionFields).strict().meta({ id: 'CreateCustomAttributeInput' });

export const updateCustomAttributeCommand = z
  .object({ id: z.string().meta({ readOnly: true }), createdAt: z.string().meta({ readOnly: true }), updatedAt: z.string().meta({ readOnly: true }), ...definitionFields })
  .partial()
  .strict()
  .meta({ id: 'UpdateCustomAttributeInput' });

export const listCustomAttributesQuery = pageQuery.extend({ entity: z.enum(CUSTOM_ATTRIBUTE_ENTITIES).optional() }).strict();

export const customAttributeView = z.object({
  id: z.uuid(),
  title: z.string(),
  name: z.string(),
  entity: z.enum(CUSTOM_ATTRIBUTE_ENTITIES),
  type: z.enum(CUSTOM_ATTRIBUTE_TYPES),
  createdAt: z.string().meta({ format: 'date-time' }),
  updatedAt: z.string().meta({ format: 'date-time' }),
}).meta({ id: 'CustomAttribute' });
export type CustomAttributeView = z.output<typeof customAttributeView>;
