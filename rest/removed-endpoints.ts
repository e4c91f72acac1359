import type { RequestHandler } from 'express';
import { HttpProblem } from './problem.js';

/** Endpoints the contract removed; every method on them answers 410. */
export const REMOVED_ENDPOINTS: ReadonlyArray<{ path: string; replacement: string }> = [
  { path: '/v2/contracts', replacement: '/v1/contracts' },
  { path: '/v1/invoice-templates', replacement: '/v1/templates' },
  { path: '/v1/readings', replacement: '/v1/measurements' },
  { path: '/v1/aggregated-readings', replacement: '/v1/aggregated-measurements' },
];

export const removedEndpoints: RequestHandler = (req, _res, next) => {
  const removed = REMOVED_ENDPOINTS.find(({ path }) => req.path === path || req.path.startsWith(`${path}/`));
  if (!removed) return next();
  next(new HttpProblem(410, 'endpoint_removed', `${removed.path} was removed; use ${removed.replacement}.`));
};
