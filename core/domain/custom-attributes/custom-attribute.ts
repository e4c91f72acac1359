import { isCalendarDate, isUtcInstant } from '../time/calendar-date.js';

export const CUSTOM_ATTRIBUTE_ENTITIES = ['site', 'customer', 'meter', 'contract', 'price_component'] as const;
export type CustomAttributeEntity = (typeof CUSTOM_ATTRIBUTE_ENTITIES)[number];

export const CUSTOM_ATTRIBUTE_TYPES = ['text', 'number', 'date', 'date_time', 'boolean'] as const;
export type CustomAttributeType = (typeof CUSTOM_ATTRIBUTE_TYPES)[number];

export type CustomAttributeValues = Record<string, unknown>;

export class CustomAttributeDefinition {
  id!: string;
  accountId!: string;
  title!: string;
  name!: string;
  entity!: CustomAttributeEntity;
  type!: CustomAttributeType;
  createdAt!: Date;
  updatedAt!: Date;
}

const FORMATS: Record<CustomAttributeType, { test(value: unknown): boolean; expected: string }> = {
  text: { test: (v) => typeof v === 'string', expected: 'a string' },
  number: { test: (v) => typeof v === 'number' && Number.isFinite(v), expected: 'a JSON number' },
  date: { test: (v) => typeof v === 'string' && isCalendarDate(v), expected: 'a date YYYY-MM-DD' },
  date_time: { test: (v) => typeof v === 'string' && isUtcInstant(v), expected: 'a UTC timestamp with milliseconds' },
  boolean: { test: (v) => typeof v === 'boolean', expected: 'true or false' },
};

export interface ValueProblem {
  key: string;
  code: 'custom_attribute_not_defined' | 'custom_attribute_invalid';
  message: string;
}

/** Checks values against the definitions of one entity; null is always allowed (no value). */
export function checkValues(definitions: readonly CustomAttributeDefinition[], values: CustomAttributeValues): ValueProblem[] {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  return Object.entries(values).flatMap(([key, value]): ValueProblem[] => {
    const definition = byName.get(key);
    if (!definition) return [{ key, code: 'custom_attribute_not_defined', message: `No custom attribute "${key}" is defined for this entity.` }];
    if (value === null || FORMATS[definition.type].test(value)) return [];
    return [{ key, code: 'custom_attribute_invalid', message: `"${key}" is a ${definition.type} attribute: expected ${FORMATS[definition.type].expected}.` }];
  });
}

/** Every defined key, null where the record has no value (also for records older than the definition). */
export function withDefaults(names: readonly string[], values: CustomAttributeValues): CustomAttributeValues {
  return Object.fromEntries(names.map((name) => [name, values[name] ?? null]));
}

/** What is stored: only keys with a value. */
export function storedValues(values: CustomAttributeValues): CustomAttributeValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}
