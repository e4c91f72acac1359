import { z } from 'zod';
import { integerParameter } from './field-formats.js';
import { parseInput } from './validation.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** `limit` 1..1000 (default 100, never clamped) and `offset` >= 0 (default 0). */
export const pageQuery = z
  .object({
    limit: integerParameter({ min: 1, max: MAX_LIMIT, default: DEFAULT_LIMIT }),
    offset: integerParameter({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 0 }),
  })
  .strict();

export type PageQuery = z.output<typeof pageQuery>;

export interface Page<T> {
  items: T[];
  total: number;
}

/** One page of a list already loaded (nested relations in GraphQL), by the same rules as a query. */
export function pageOf<T>(items: readonly T[], query: unknown): T[] {
  const { limit, offset } = parseInput(pageQuery, query, { unknownCode: 'unknown_parameter' });
  return items.slice(offset, offset + limit);
}
