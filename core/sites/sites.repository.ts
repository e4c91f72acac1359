import type { Site } from '../domain/sites/site.js';
import type { ResourceRepository } from '../resource.repository.js';

export type SiteRepository = ResourceRepository<Site>;
