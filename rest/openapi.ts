import { z } from 'zod';
import type { RouteSpec } from './route.js';

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  instance: z.string(),
  requestId: z.string(),
  errors: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })).optional(),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing, invalid or expired token',
  403: 'The role may not perform this operation',
  404: 'Not found in this account',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Content-Type is not application/json',
  429: 'Rate limit exceeded',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): unknown {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
}

function queryParameters(schema: z.ZodType): unknown[] {
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

function operation(route: RouteSpec): Record<string, unknown> {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  }));
  const errorStatuses = [
    ...(route.body || route.query ? [400] : []),
    ...(route.public ? [] : [401, 403, 429]),
    ...(route.body ? [413, 415] : []),
    ...(route.errors ?? []),
  ];
  const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.public ? { security: [] } : {}),
    parameters: [...pathParams, ...(route.query ? queryParameters(route.query) : [])],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } }
      : {}),
    responses: {
      [route.response.status]: {
        description: route.response.description,
        ...(route.response.schema ? { content: { 'application/json': { schema: jsonSchema(route.response.schema, 'output') } } } : {}),
        ...(route.response.contentType ? { content: { [route.response.contentType]: { schema: { type: 'string', format: 'binary' } } } } : {}),
      },
      ...Object.fromEntries([...new Set(errorStatuses)].sort().map((status) => [status, { description: ERROR_DESCRIPTIONS[status], content: problem }])),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the same route specs and zod schemas that serve requests. */
export function openApiDocument(routes: RouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'ebbs — Energy Billing and Balancing Service', version: '1.0.0' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
    },
  };
}
