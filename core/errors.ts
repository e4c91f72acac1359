/**
 * The closed set of errors a use case may throw. Adapters map `kind` to their protocol
 * (rest/problem.ts to HTTP statuses, graphql/errors.ts to extensions.code) in one place each.
 */
export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large';

export interface FieldError {
  /** JSON path of the offending value, e.g. `address.country` or `[3].timestamp`. */
  path: string;
  code: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(
    readonly errors: FieldError[],
    code = 'validation_failed',
    message = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join(' '),
  ) {
    super(code, message);
  }
}

export class AuthenticationError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(message = 'The token is missing, invalid, expired or revoked.') {
    super('invalid_token', message);
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message = 'Your role may not perform this operation.') {
    super('forbidden', message);
  }
}

/** Codes are snake case however the resource is written: `line item`, `invoice PDF` → `line_item`, `invoice_pdf`. */
const snakeCase = (resource: string) => resource.toLowerCase().replace(/[^a-z0-9]+/g, '_');

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(resource: string, id: string) {
    super(`${snakeCase(resource)}_not_found`, `No ${resource.replace(/_/g, ' ')} with id ${id}.`);
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** More than a use case takes in one call (e.g. items per upload). */
export class TooLargeError extends DomainError {
  readonly kind = 'too_large';
}
