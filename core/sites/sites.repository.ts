import type { Site } from '../domain/sites/site.js';
import type { DeletableRepository, ResourceRepository } from '../resource.repository.js';

export type SiteRepository = ResourceRepository<Site> & DeletableRepository<Site>;
