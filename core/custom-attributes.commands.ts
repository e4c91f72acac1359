import { z } from 'zod';

/**
 * `customAttributes` of an entity. No definitions exist yet, so the only valid value is an
 * object without keys; each key sent is reported until its definition can be created.
 */
export const customAttributesInput = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `No custom attribute "${key}" is defined for this entity.`,
        params: { code: 'custom_attribute_not_defined' },
      });
    }
  });
