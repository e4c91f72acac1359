import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest: AES-256-GCM under a key from the environment (WEBHOOK_SECRET_KEY).
 * Hashing would not do: HMAC signing needs the secret itself.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = createHash('sha256').update(keyMaterial).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
  }

  open(stored: string): string {
    const [version, iv, tag, sealed] = stored.split(':');
    if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('Unknown secret format.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  }
}
