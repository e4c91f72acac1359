import { createHash, randomBytes } from 'node:crypto';

type TokenPrefix = 'ebbs_api' | 'ebbs_rt';

/**
 * A random opaque token with a recognisable prefix (so leaked tokens can be found by scanners) and
 * its account (32 hex digits), so that looking it up reads one account's rows — the tables can be
 * distributed by account. `ebbs_api_<account>_<random>`.
 */
export function generateToken(prefix: TokenPrefix, accountId: string): string {
  return `${prefix}_${accountId.replaceAll('-', '')}_${randomBytes(32).toString('base64url')}`;
}

/** Tokens carry 256 bits of entropy, so a plain SHA-256 is a sufficient one-way hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as presented: its hash, and its account when it names one (tokens issued before it did still work). */
export interface PresentedToken {
  hash: string;
  accountId: string | null;
}

const WITH_ACCOUNT = /^ebbs_(?:api|rt)_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})_/;

export function presentedToken(token: string): PresentedToken {
  const match = WITH_ACCOUNT.exec(token);
  return { hash: hashToken(token), accountId: match ? match.slice(1, 6).join('-') : null };
}
