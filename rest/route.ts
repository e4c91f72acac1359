import type { z } from 'zod';
import type { Actor } from '../core/auth/actor.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

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
  tag: string;
  public?: boolean;
  body?: z.ZodType;
  /** Also accepts `text/csv`, turned into the JSON body shape by this function. */
  csv?: (text: string) => unknown;
  /** Body size limit (default 1mb). */
  bodyLimit?: string;
  query?: z.ZodType;
  /** `schema` and `contentType` omitted: no body (204). `contentType`: a binary body. */
  response: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /** Error statuses this operation may answer besides the common ones. */
  errors?: number[];
  handle(input: RouteInput): Promise<RouteResult>;
}
