import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret as Standard Webhooks writes them: `whsec_` + base64 of 24 random bytes. */
export function generateSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The HMAC key of a secret (its decoded bytes), made once for many signatures: making a key costs
 * several times what the signature of a delivery does.
 */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'));
}

/**
 * The Standard Webhooks signature of one delivery: `v1,` + base64 HMAC-SHA256, keyed with the
 * secret's decoded bytes, over `id.timestamp.body`.
 */
export function sign(secret: string | KeyObject, id: string, timestamp: number, body: string): string {
  const key = typeof secret === 'string' ? signingKey(secret) : secret;
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per valid secret (or its key), space-separated. */
export function signatureHeader(secrets: readonly (string | KeyObject)[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => sign(secret, id, timestamp, body)).join(' ');
}
