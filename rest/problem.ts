import type { Response } from 'express';
import { DomainError, type ErrorKind, type FieldError } from '../core/errors.js';

/** An error that exists only at the HTTP level (405, 410, 413, 415, 429, unknown route). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  headers: Record<string, string>;
}

/** Body-parser errors carry a `type`; everything else unknown is a 500 that reveals nothing. */
function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) {
    const headers: Record<string, string> =
      error.kind === 'unauthenticated' ? { 'WWW-Authenticate': `Bearer error="${error.code}"` } : {};
    return {
      status: STATUS_OF_KIND[error.kind],
      code: error.code,
      detail: error.message,
      errors: 'errors' in error ? (error.errors as FieldError[]) : undefined,
      headers,
    };
  }
  if (error instanceof HttpProblem) return { status: error.status, code: error.code, detail: error.message, headers: error.headers };
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return { status: 413, code: 'payload_too_large', detail: 'The request body is too large.', headers: {} };
  if (type === 'entity.parse.failed') return { status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON.', headers: {} };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { status: 415, code: 'unsupported_media_type', detail: 'Unsupported body encoding.', headers: {} };
  }
  return { status: 500, code: 'internal_error', detail: 'An unexpected error occurred.', headers: {} };
}

export function sendProblem(res: Response, error: unknown): Problem {
  const problem = toProblem(error);
  const requestId = String(res.locals.requestId ?? '');
  res
    .status(problem.status)
    .set(problem.headers)
    .type('application/problem+json')
    .json({
      type: `https://ebbs.dev/problems/${problem.code}`,
      title: TITLES[problem.status] ?? 'Error',
      status: problem.status,
      detail: problem.detail,
      code: problem.code,
      instance: res.req.originalUrl.split('?')[0],
      requestId,
      ...(problem.errors ? { errors: problem.errors } : {}),
    });
  return problem;
}
