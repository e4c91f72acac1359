import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { assertCanWrite, type Actor } from '../core/auth/actor.js';
import { authenticate, clientRateLimit, oauthRateLimit, type RateBudgets } from './rate-limit.js';
import { openApiDocument } from './openapi.js';
import { HttpProblem, sendProblem } from './problem.js';
import { removedEndpoints } from './removed-endpoints.js';
import type { RouteSpec } from './route.js';
import { oauthRoutes } from './routes/oauth.routes.js';
import type { Services } from '../core/services.js';
import { masterDataRoutes } from './routes/master-data.routes.js';
import { measurementRoutes } from './routes/measurements.routes.js';
import { balancingRoutes } from './routes/balancing.routes.js';
import { eventRoutes } from './routes/events.routes.js';
import { paymentRoutes } from './routes/payments.routes.js';
import { billingRoutes } from './routes/billing.routes.js';
import { billRunRoutes } from './routes/bill-runs.routes.js';
import { paymentRunRoutes } from './routes/payment-runs.routes.js';

export interface RestOptions {
  budgets: RateBudgets;
}

export function restRoutes(services: Services): RouteSpec[] {
  return [...oauthRoutes(services.auth), ...masterDataRoutes(services), ...measurementRoutes(services.measurements), ...balancingRoutes(services.balancing), ...billingRoutes(services), ...billRunRoutes(services), ...paymentRoutes(services), ...paymentRunRoutes(services), ...eventRoutes(services)];
}

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function bodyOf(route: RouteSpec, req: Request): unknown {
  if (req.is('application/json')) return req.body;
  if (route.csv && req.is('text/csv')) return route.csv.parse(String(req.body));
  const types = route.csv ? '"application/json" or "text/csv"' : '"application/json"';
  throw new HttpProblem(415, 'unsupported_media_type', `Send the body with "Content-Type: ${types}".`);
}

/** Body parsers of a route: JSON always, CSV where the route takes it, with the route's size limit. */
function parsers(route: RouteSpec): RequestHandler[] {
  if (!route.body) return [];
  const limit = route.bodyLimit ?? '1mb';
  const json = express.json({ limit, type: ['application/json', 'application/*+json'] });
  return route.csv ? [json, express.text({ limit, type: 'text/csv' })] : [json];
}

function handler(route: RouteSpec): RequestHandler {
  return async (req: Request, res: Response) => {
    const actor = res.locals.actor as Actor;
    if (!route.public && route.method !== 'get') assertCanWrite(actor);
    const result = await route.handle({
      actor,
      params: req.params as Record<string, string>,
      query: req.query as Record<string, unknown>,
      body: route.body ? bodyOf(route, req) : undefined,
    });
    if (result.location) res.location(result.location);
    if (result.contentType) {
      if (result.fileName) res.attachment(result.fileName);
      res.status(result.status).type(result.contentType).send(result.body);
    } else if (result.body === undefined) res.status(result.status).end();
    else res.status(result.status).json(result.body);
  };
}

function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = allowed.map((m) => m.toUpperCase()).join(', ');
  return (req, _res, next) => {
    const hint = req.method === 'PUT' && allowed.includes('patch') ? ' Updates use PATCH (a JSON merge patch).' : '';
    next(new HttpProblem(405, 'method_not_allowed', `${req.method} is not supported here; allowed: ${allow}.${hint}`, { Allow: allow }));
  };
}

/**
 * The /v1 API: removed endpoints, public routes (limited per IP), then bearer authentication and
 * the client's rate budget, then every route of the registry; each known path answers 405 for
 * other methods.
 */
export function createRestApi(services: Services, options: RestOptions): { router: Router; routes: RouteSpec[] } {
  const routes = restRoutes(services);
  const router = Router();
  const document = openApiDocument(routes);
  const publicLimit = oauthRateLimit(options.budgets);

  router.use(removedEndpoints);
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  for (const route of routes.filter((r) => r.public)) router[route.method](expressPath(route.path), publicLimit, ...parsers(route), handler(route));
  router.use('/v1', authenticate(services.auth, options.budgets), clientRateLimit(options.budgets));
  for (const route of routes.filter((r) => !r.public)) router[route.method](expressPath(route.path), ...parsers(route), handler(route));

  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
  for (const [path, methods] of methodsByPath) router.all(expressPath(path), methodNotAllowed(methods));
  return { router, routes };
}

export const notFound: RequestHandler = (req, _res, next) => {
  next(new HttpProblem(404, 'route_not_found', `No route ${req.method} ${req.path}.`));
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const problem = sendProblem(res, error);
    if (problem.status >= 500) logger.error({ err: error, requestId: res.locals.requestId }, 'unhandled error');
  };
}
