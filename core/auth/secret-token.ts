import { createHash, randomBytes } from 'node:crypto';

/** A random opaque token with a recognisable prefix (so leaked tokens can be found by scanners). */
export function generateToken(prefix: 'ebbs_api' | 'ebbs_rt'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Tokens carry 256 bits of entropy, so a plain SHA-256 is a sufficient one-way hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
