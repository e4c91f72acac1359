import { z } from 'zod';
import type { ResourceService } from '../core/resource.service.js';
import type { RouteSpec } from './route.js';

export interface ResourceDefinition<V> {
  /** Collection path, e.g. /v1/sites */
  path: string;
  tag: string;
  /** Names for operation ids and summaries: Site / Sites, site / sites. */
  singular: string;
  plural: string;
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

const lower = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/**
 * The four operations of a resource as the contract shapes them: POST 201 + Location + entity,
 * GET list {data,total}, GET /{id} entity, PATCH /{id} {data}.
 */
export function resourceRoutes<V extends { id: string }>(resource: ResourceDefinition<V>): RouteSpec[] {
  const { service, singular, plural, tag, view } = resource;
  const item = `${resource.path}/{id}`;
  const errors = resource.conflicts ? [409] : [];
  const routes: RouteSpec[] = [];
  if (resource.create && service.create) {
    const create = service.create.bind(service);
    routes.push({
      method: 'post',
      path: resource.path,
      operationId: `create${singular}`,
      summary: `Create a ${lower(singular)}`,
      tag,
      body: resource.create,
      response: { status: 201, description: `The created ${lower(singular)}`, schema: resource.createdView ?? view },
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
      summary: `List ${lower(plural)}`,
      tag,
      query: resource.list,
      response: { status: 200, description: `A page of ${lower(plural)}`, schema: z.object({ data: z.array(view), total: z.number().int() }) },
      handle: async ({ actor, query }) => ({ status: 200, body: await service.list(actor, query) }),
    },
    {
      method: 'get',
      path: item,
      operationId: `get${singular}`,
      summary: `Read a ${lower(singular)}`,
      tag,
      response: { status: 200, description: `The ${lower(singular)}`, schema: view },
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
      summary: `Update a ${lower(singular)} (JSON merge patch)`,
      tag,
      body: resource.update,
      response: { status: 200, description: `The updated ${lower(singular)}`, schema: z.object({ data: view }) },
      errors: [404, ...errors],
      handle: async ({ actor, params, body }) => ({ status: 200, body: { data: await update(actor, params.id!, body) } }),
    });
  }
  return routes;
}
