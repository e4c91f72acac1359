import { z } from 'zod';
import type { ResourceService } from '../core/resource.service.js';
import { listOf, updatedOf, type RouteSpec, type Tag } from './route.js';

export interface ResourceDefinition<V> {
  /** Collection path, e.g. /v1/sites */
  path: string;
  tag: Tag;
  /** Names for operation ids: Site / Sites. */
  singular: string;
  plural: string;
  /** Words for summaries where the names split at capitals fall short (acronyms); default e.g. "electricity product(s)". */
  nouns?: { singular: string; plural: string };
  view: z.ZodType;
  /** The answer to POST when it shows more than reads do (a secret shown once). */
  createdView?: z.ZodType;
  service: ResourceService<V>;
  /** Body of POST; omitted when the resource cannot be created over REST. */
  create?: z.ZodType;
  list: z.ZodType;
  /** Body of PATCH /{id}; omitted when the resource cannot be updated over REST. */
  update?: z.ZodType;
  /** Statuses besides the common ones, e.g. 409 for uniqueness. */
  conflicts?: boolean;
}

const words = (name: string) => name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, ' ').toLowerCase();

/** "an" before a vowel sound: a vowel but the "you" of "user", or an acronym's first letter spoken with one (an MPO). */
function withArticle(noun: string): string {
  const an = /^[A-Z]{2}/.test(noun) ? /^[AEFHILMNORSX]/.test(noun) : /^([aeio]|u(?!s))/i.test(noun);
  return `${an ? 'an' : 'a'} ${noun}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function filtersOf(list: z.ZodType): string {
  const names = list instanceof z.ZodObject ? Object.keys(list.shape).filter((name) => name !== 'limit' && name !== 'offset') : [];
  return names.length > 0 ? ` Filters: ${names.map((name) => `\`${name}\``).join(', ')}.` : '';
}

/**
 * The four operations of a resource as the contract shapes them: POST 201 + Location + entity,
 * GET list {data,total}, GET /{id} entity, PATCH /{id} {data}.
 */
export function resourceRoutes<V extends { id: string }>(resource: ResourceDefinition<V>): RouteSpec[] {
  const { service, singular, plural, tag, view } = resource;
  const one = resource.nouns?.singular ?? words(singular);
  const many = resource.nouns?.plural ?? words(plural);
  const item = `${resource.path}/{id}`;
  const errors = resource.conflicts ? [409] : [];
  const conflict = resource.conflicts ? ` 409 when it conflicts with what is stored (\`code\` says how).` : '';
  const routes: RouteSpec[] = [];
  if (resource.create && service.create) {
    const create = service.create.bind(service);
    routes.push({
      method: 'post',
      path: resource.path,
      operationId: `create${singular}`,
      summary: `Create ${withArticle(one)}`,
      description:
        `Creates ${withArticle(one)} in the caller's account and answers it with its URL in \`Location\`. ` +
        `Every invalid field of the body is reported at once (400).${conflict}` +
        (resource.createdView ? ' Only this answer shows the secret; reads leave it out.' : ''),
      tag,
      body: resource.create,
      response: { status: 201, description: `The created ${one}`, schema: resource.createdView ?? view },
      errors,
      handle: async ({ actor, body }) => {
        const created = await create(actor, body);
        return { status: 201, body: created, location: `${resource.path}/${created.id}` };
      },
    });
  }
  routes.push(
    {
      method: 'get',
      path: resource.path,
      operationId: `list${plural}`,
      summary: `List ${many}`,
      description: `${capitalised(many)} of the caller's account, a page at a time: \`limit\` (1 to 1000, default 100) and \`offset\` choose the page, \`total\` counts every match.${filtersOf(resource.list)}`,
      tag,
      query: resource.list,
      response: { status: 200, description: `A page of ${many}`, schema: listOf(view) },
      handle: async ({ actor, query }) => ({ status: 200, body: await service.list(actor, query) }),
    },
    {
      method: 'get',
      path: item,
      operationId: `get${singular}`,
      summary: `Read ${withArticle(one)}`,
      description: `Reads one ${one} by its id. An id that names none in the caller's account, another account's included, is 404.`,
      tag,
      response: { status: 200, description: `The ${one}`, schema: view },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await service.get(actor, params.id!) }),
    },
  );
  if (resource.update && service.update) {
    const update = service.update.bind(service);
    routes.push({
      method: 'patch',
      path: item,
      operationId: `update${singular}`,
      summary: `Update ${withArticle(one)}`,
      description:
        `Changes ${withArticle(one)} by a JSON merge patch (RFC 7396): absent fields stay, \`null\` removes a field, objects merge key by key, ` +
        `and the merged ${one} must be valid as a whole, like a creation. \`id\`, \`createdAt\` and \`updatedAt\` may be sent back unchanged but not changed (400 \`field_read_only\`).${conflict}`,
      tag,
      body: resource.update,
      response: { status: 200, description: `The updated ${one}, in \`data\``, schema: updatedOf(view) },
      errors: [404, ...errors],
      handle: async ({ actor, params, body }) => ({ status: 200, body: { data: await update(actor, params.id!, body) } }),
    });
  }
  return routes;
}
