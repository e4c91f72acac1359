import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

/**
 * A typed client of the ebbs REST API (/v1), generated from its OpenAPI document: every path,
 * body and answer is checked by the compiler, e.g. `await client.POST('/v1/sites', { body })`
 * answers `{ data }` (the created site) or `{ error }` (the RFC 9457 problem).
 */
export type EbbsClient = Client<paths>;
/** The named schemas of the document: `Schemas['Site']`, `Schemas['CreateSiteInput']`, `Schemas['Problem']`, … */
export type Schemas = components['schemas'];

export function ebbsClient(baseUrl: string, accessToken: string): EbbsClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${accessToken}` } });
}
