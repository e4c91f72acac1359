import { z } from 'zod';
import { pageQuery } from '../../core/pagination.js';
import { createSiteCommand, siteView, updateSiteCommand } from '../../core/sites/sites.commands.js';
import type { SitesService } from '../../core/sites/sites.service.js';
import type { RouteSpec } from '../route.js';

const siteList = z.object({ data: z.array(siteView), total: z.number().int() });

export function sitesRoutes(sites: SitesService): RouteSpec[] {
  return [
    {
      method: 'post',
      path: '/v1/sites',
      operationId: 'createSite',
      summary: 'Create a site',
      tag: 'Sites',
      body: createSiteCommand,
      response: { status: 201, description: 'The created site', schema: siteView },
      handle: async ({ actor, body }) => {
        const site = await sites.createSite(actor, body);
        return { status: 201, body: site, location: `/v1/sites/${site.id}` };
      },
    },
    {
      method: 'get',
      path: '/v1/sites',
      operationId: 'listSites',
      summary: 'List sites',
      tag: 'Sites',
      query: pageQuery,
      response: { status: 200, description: 'A page of sites', schema: siteList },
      handle: async ({ actor, query }) => ({ status: 200, body: await sites.listSites(actor, query) }),
    },
    {
      method: 'get',
      path: '/v1/sites/{id}',
      operationId: 'getSite',
      summary: 'Read a site',
      tag: 'Sites',
      response: { status: 200, description: 'The site', schema: siteView },
      errors: [404],
      handle: async ({ actor, params }) => ({ status: 200, body: await sites.getSite(actor, params.id!) }),
    },
    {
      method: 'patch',
      path: '/v1/sites/{id}',
      operationId: 'updateSite',
      summary: 'Update a site (JSON merge patch)',
      tag: 'Sites',
      body: updateSiteCommand,
      response: { status: 200, description: 'The updated site', schema: z.object({ data: siteView }) },
      errors: [404],
      handle: async ({ actor, params, body }) => ({ status: 200, body: { data: await sites.updateSite(actor, params.id!, body) } }),
    },
  ];
}
