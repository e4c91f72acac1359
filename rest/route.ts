import { z } from 'zod';
import type { Actor } from '../core/auth/actor.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The groups of the OpenAPI document; each has its description there. */
export type Tag =
  | 'Authentication'
  | 'Accounts'
  | 'Users'
  | 'Sites'
  | 'Electricity products'
  | 'Customers'
  | 'MPOs'
  | 'Meters'
  | 'Contracts'
  | 'Contract meters'
  | 'Meter balancing settings'
  | 'Custom attributes'
  | 'Measurements'
  | 'Balancing'
  | 'Tax rates'
  | 'Prices'
  | 'Templates'
  | 'Bill runs'
  | 'Invoices'
  | 'Payments'
  | 'Prepayments'
  | 'Payment runs'
  | 'Events'
  | 'Webhooks';

export interface RouteInput {
  /** Present on every route that is not `public`. */
  actor: Actor;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RouteResult {
  status: number;
  body: unknown;
  /** Sets `Location` (creations). */
  location?: string;
  /** A binary body (`body` a Buffer) of this type instead of JSON, offered for download as `fileName`. */
  contentType?: string;
  fileName?: string;
}

/** A `text/csv` body a route accepts besides JSON. */
export interface CsvBody {
  /** Turns the text into the JSON body shape, so that the same validation applies. */
  parse(text: string): unknown;
  /** Its columns, for the OpenAPI document. */
  description: string;
  example: string;
}

/**
 * One REST operation: the Express router and the OpenAPI document are both built from these,
 * so no route exists without its documentation.
 */
export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI style: /v1/sites/{id} */
  path: string;
  operationId: string;
  summary: string;
  /** A sentence or two beyond the summary: what the operation does, answers and refuses. */
  description: string;
  tag: Tag;
  public?: boolean;
  /** JSON body; named in the OpenAPI components by its `.meta({ id })`. */
  body?: z.ZodType;
  csv?: CsvBody;
  /** Body size limit (default 1mb). */
  bodyLimit?: string;
  query?: z.ZodType;
  /** `schema` and `contentType` omitted: no body (204). `contentType`: a binary body. */
  response: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /** Error statuses this operation may answer besides the common ones. */
  errors?: number[];
  handle(input: RouteInput): Promise<RouteResult>;
}

function componentId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('A schema wrapped for a response needs an id: .meta({ id }).');
  return id;
}

/** Built once per item schema: zod's global registry refuses a second schema under an id, and routes are built once per app. */
function memoised(build: (item: z.ZodType) => z.ZodType): (item: z.ZodType) => z.ZodType {
  const built = new WeakMap<z.ZodType, z.ZodType>();
  return (item) => {
    const known = built.get(item);
    if (known) return known;
    const schema = build(item);
    built.set(item, schema);
    return schema;
  };
}

/** A page as every list answers it, `{ data, total }`; the component `<Item>List`. */
export const listOf = memoised((item) =>
  z
    .object({ data: z.array(item), total: z.number().int().describe('How many match, on every page') })
    .meta({ id: `${componentId(item)}List` }),
);

/** The answer to a PATCH, `{ data }`; the component `Updated<Item>`. */
export const updatedOf = memoised((item) => z.object({ data: item }).meta({ id: `Updated${componentId(item)}` }));
