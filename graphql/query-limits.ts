import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { RequestHandler } from 'express';
import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_LIMIT } from '../core/pagination.js';

export interface QueryLimits {
  maxCost: number;
  maxDepth: number;
  maxAliases: number;
}

/** Documents that would take longer to cost than to refuse. */
const MAX_TOKENS = 20_000;
const MAX_COSTED_NODES = 20_000;

/**
 * A field costs 1 point, or what its selection costs when it has one; a field that pages (a
 * `limit` argument, on root lists and nested list relations alike) costs its limit (default 100)
 * times its selection, so relations of lists multiply: `sites { data { meters { id } } }` is
 * 100 x 100 x 1 = 10,000 points.
 */
const pagedListCost: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const selection = Math.max(1, childComplexity);
  if (!field.args.some((arg) => arg.name === 'limit')) return selection;
  return (typeof args.limit === 'number' ? args.limit : DEFAULT_LIMIT) * selection;
};

export type QueryVerdict = { accepted: true; cost: number } | { accepted: false; reason: string; cost: number | null } | { accepted: 'unchecked' };

/**
 * Costs an operation before anything runs. Documents that do not parse or validate are left to
 * Apollo, which answers them without running a resolver.
 */
export function judgeQuery(schema: GraphQLSchema, limits: QueryLimits, request: { query?: unknown; variables?: unknown; operationName?: unknown }): QueryVerdict {
  if (typeof request.query !== 'string') return { accepted: 'unchecked' };
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS, noLocation: true });
  } catch (error) {
    const tooLong = error instanceof GraphQLError && /token limit/i.test(error.message);
    return tooLong ? { accepted: false, reason: `The document has more than ${MAX_TOKENS} tokens.`, cost: null } : { accepted: 'unchecked' };
  }
  const rejections: string[] = [];
  const onReject = [(_context: unknown, error: GraphQLError) => void rejections.push(error.message.replace(/^Syntax Error: /, ''))];
  validate(schema, document, [
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, propagateOnRejection: false, onReject }),
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject }),
  ]);
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      variables: isRecord(request.variables) ? request.variables : {},
      ...(typeof request.operationName === 'string' ? { operationName: request.operationName } : {}),
      estimators: [pagedListCost],
      maxQueryNodes: MAX_COSTED_NODES,
    });
  } catch (error) {
    if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) {
      return { accepted: false, reason: `The operation has more than ${MAX_COSTED_NODES} fields once its fragments are expanded.`, cost: null };
    }
    return { accepted: 'unchecked' };
  }
  if (rejections.length > 0) return { accepted: false, reason: rejections.join(' '), cost };
  if (cost > limits.maxCost) return { accepted: false, reason: `The operation costs ${cost} points; at most ${limits.maxCost} are allowed.`, cost };
  return { accepted: true, cost };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Refuses an operation above the limits with HTTP 400 and `query_too_complex` before any resolver
 * runs; an accepted one leaves its cost on `res.locals.graphqlCost` for the rate limit.
 */
export function queryLimits(schema: GraphQLSchema, limits: QueryLimits): RequestHandler {
  return (req, res, next) => {
    const request = req.method === 'GET' ? (req.query as Record<string, unknown>) : (req.body as Record<string, unknown> | undefined) ?? {};
    const variables = typeof request.variables === 'string' ? safeJson(request.variables) : request.variables;
    const verdict = judgeQuery(schema, limits, { ...request, variables });
    if (verdict.accepted === false) {
      res.status(400).json({
        errors: [{ message: `Query too complex: ${verdict.reason}`, extensions: { code: 'query_too_complex', cost: verdict.cost, maxCost: limits.maxCost, maxDepth: limits.maxDepth, maxAliases: limits.maxAliases } }],
      });
      return;
    }
    res.locals.graphqlCost = verdict.accepted === true ? verdict.cost : 1;
    next();
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
