import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { DomainError } from '../core/errors.js';

/** The one place that turns core errors into GraphQL errors: `extensions.code` is core's code. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof DomainError) {
    return {
      message: original.message,
      path: formatted.path,
      locations: formatted.locations,
      extensions: {
        code: original.code,
        kind: original.kind,
        ...('errors' in original ? { errors: original.errors } : {}),
      },
    };
  }
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    return { message: 'An unexpected error occurred.', path: formatted.path, extensions: { code: 'internal_error' } };
  }
  return formatted;
}
