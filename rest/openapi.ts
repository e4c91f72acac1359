import { z } from 'zod';
import type { RouteSpec, Tag } from './route.js';

const problemSchema = z
  .object({
    type: z.string().describe('https://ebbs.dev/problems/{code}'),
    title: z.string().describe('The HTTP status in words'),
    status: z.number().int(),
    detail: z.string().describe('What went wrong, for people'),
    code: z.string().describe('What went wrong, for programs: stable, snake_case'),
    instance: z.string().describe('The request path'),
    requestId: z.string().describe('The X-Request-Id of the request'),
    errors: z
      .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
      .optional()
      .describe('400: every invalid field, by path'),
  })
  .meta({ id: 'Problem', description: 'An RFC 9457 problem detail, sent as application/problem+json.' });

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

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  Authentication: 'Access tokens for API tokens and refresh tokens. The only operation without a bearer token.',
  Accounts: "The caller's account: its timezone, which governs every date, and the seller profile every invoice prints.",
  Users: 'The users of the account and their roles (admin writes, viewer reads); they are created with the operator CLI.',
  Sites: 'Buildings or communities whose meters are balanced and billed together.',
  'Electricity products': 'The tariffs contracts are made on: prepayment cycle and the fuel mix (Stromkennzeichnung).',
  Customers: 'The people and companies supplied, with their invoice address and e-invoice settings.',
  MPOs: 'Metering point operators (Messstellenbetreiber) that deliver meter data.',
  Meters: 'Physical and virtual meters of a site, with their market location and metering point ids.',
  Contracts: 'Supply contracts of a customer on a site for an electricity product.',
  'Contract meters': 'Which meters a contract covers, and from when to when.',
  'Meter balancing settings': "A meter's part in balancing its site: its role, priority or share, and when it applies.",
  'Custom attributes': 'Definitions of the extra fields sites, customers, meters, contracts and price components may carry.',
  Measurements: 'Meter values: upload in JSON or CSV, read as submitted, aggregate per bucket.',
  Balancing: 'Local supply shared among consumers interval by interval, and how far each site is balanced.',
  'Tax rates': 'Tax percentages and the dates they are valid.',
  Prices: 'Price component groups, price components and their dated prices: the price sheet of an electricity product.',
  Templates: 'Texts of invoices and credit notes by kind and locale.',
  'Bill runs': 'Billing every contract of a period at once: drafts first, then issued in the background.',
  Invoices: 'Invoices and credit notes with their line items, PDFs and EN 16931 e-invoices.',
  Payments: "Payment methods (SEPA mandates) and the payments, prepayments and refunds of customers' contracts.",
  Prepayments: 'Prepayment amounts of a contract over time, and requests that turn them into due prepayments.',
  'Payment runs': 'SEPA files for the bank: direct debits (pain.008) and credit transfers (pain.001).',
  Events: 'The log of every change, the same envelopes webhooks deliver.',
  Webhooks: 'Endpoints that receive signed events, with their delivery log and retries.',
};

type JsonSchema = Record<string, unknown>;

/** zod states `.int()` as the safe-integer range: a limit of JavaScript numbers, not a bound of the API. */
const SAFE_INTEGER_BOUNDS: unknown[] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

function annotate(io: 'input' | 'output') {
  return ({ jsonSchema, zodSchema }: { jsonSchema: JsonSchema; zodSchema: unknown }): void => {
    for (const bound of ['minimum', 'maximum']) if (SAFE_INTEGER_BOUNDS.includes(jsonSchema[bound])) delete jsonSchema[bound];
    // zod leaves the default and the examples out of a request's schema when the value is
    // transformed (as query integers and normalised texts are), yet the default is what the API
    // uses when the parameter is absent (`limit`: 100), and the examples show what a client sends.
    const meta = z.globalRegistry.get(zodSchema as z.ZodType);
    if (io === 'input' && meta) for (const keyword of ['default', 'examples'] as const) if (meta[keyword] !== undefined) jsonSchema[keyword] ??= meta[keyword];
    const properties = jsonSchema.properties as Record<string, JsonSchema> | undefined;
    if (io !== 'input' || !properties) return;
    // A body may carry a read-only field only unchanged (core/patching.ts), so a client never needs to send one.
    for (const [name, property] of Object.entries(properties)) if (property.readOnly === true) delete properties[name];
  };
}

/** Points the references zod writes to its `$defs` at the document's components instead. */
function towardsComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(towardsComponents);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, '#/components/schemas/') : towardsComponents(inner)]),
  );
}

/** The document's named schemas, collected as operations use them. */
class Components {
  private readonly schemas: Record<string, unknown> = {};

  /** `schema` in JSON Schema as a request (`input`) or a response (`output`) has it; its parts with a `.meta({ id })` become components. */
  use(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _schema, $defs, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: annotate(io) }) as JsonSchema;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      const component = towardsComponents(definition);
      if (id in this.schemas && JSON.stringify(this.schemas[id]) !== JSON.stringify(component)) {
        throw new Error(`The schema ${id} differs between requests and responses: give each its own id.`);
      }
      this.schemas[id] = component;
    }
    return towardsComponents(json) as JsonSchema;
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

function queryParameters(schema: z.ZodType, components: Components): unknown[] {
  const json = components.use(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(description ? { description } : {}),
    schema: property,
  }));
}

function operation(route: RouteSpec, components: Components, problem: JsonSchema): Record<string, unknown> {
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
  const { response } = route;
  const csv = route.csv ? { 'text/csv': { schema: { type: 'string', description: route.csv.description }, example: route.csv.example } } : {};
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    ...(route.public ? { security: [] } : {}),
    parameters: [...pathParams, ...(route.query ? queryParameters(route.query, components) : [])],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: components.use(route.body, 'input') }, ...csv } } } : {}),
    responses: {
      [response.status]: {
        description: response.description,
        ...(response.schema ? { content: { 'application/json': { schema: components.use(response.schema, 'output') } } } : {}),
        ...(response.contentType ? { content: { [response.contentType]: { schema: { type: 'string', format: 'binary' } } } } : {}),
      },
      ...Object.fromEntries(
        [...new Set(errorStatuses)].sort().map((status) => [
          status,
          { description: status === 415 && route.csv ? 'Content-Type is neither application/json nor text/csv' : ERROR_DESCRIPTIONS[status], content: { 'application/problem+json': { schema: problem } } },
        ]),
      ),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the same route specs and zod schemas that serve requests. */
export function openApiDocument(routes: RouteSpec[]): Record<string, unknown> {
  const components = new Components();
  const problem = components.use(problemSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route, components, problem) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ebbs — Energy Billing and Balancing Service',
      version: '1.0.0',
      description:
        'Metering, balancing, billing and payments for tenant electricity (Mieterstrom), shared building supply (GGV) and energy communities. ' +
        'Every operation but the token exchange needs a bearer token from POST /v1/oauth; errors are RFC 9457 problems.',
      contact: { name: 'ebbs maintainers', email: 'security@ebbs.dev' },
      // The licence of package.json (test/e2e/openapi-quality.test.ts keeps the two equal).
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: components.all(),
    },
  };
}
