// Secrets at rest (agencies' Twilio auth tokens and Stripe secret keys): AES-256-GCM with a key from
// SECRETS_KEY, or on a laptop a key generated once into DATA_DIR/secrets.key (ADR 016). A sealed value
// is `enc:v1:<iv>:<tag>:<ciphertext>` (base64url parts), so a plaintext left over from before is
// recognised and sealed by the start-up step.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';

export type Secrets = {
  seal(plain: string): string;
  /** The plaintext of a sealed value; a value that is not sealed is returned as it is. */
  open(value: string): string;
  /**
   * A 32-byte key for one purpose (e.g. 'widget-token'), derived from the secrets key with HKDF-SHA256:
   * a key of one purpose reveals neither the secrets key nor another purpose's key.
   */
  derive(purpose: string): Buffer;
};

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

export function createSecrets(key: Buffer): Secrets {
  if (key.length !== 32) throw new Error('secrets: the key must be 32 bytes');
  const derived = new Map<string, Buffer>();
  return {
    derive(purpose) {
      let out = derived.get(purpose);
      if (!out) {
        out = Buffer.from(crypto.hkdfSync('sha256', key, Buffer.alloc(0), `stn:${purpose}`, 32));
        derived.set(purpose, out);
      }
      return out;
    },
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${PREFIX}${iv.toString('base64url')}:${tag.toString('base64url')}:${ct.toString('base64url')}`;
    },
    open(value) {
      if (!isSealed(value)) return value;
      const [iv, tag, ct] = value.slice(PREFIX.length).split(':');
      if (!iv || !tag || ct === undefined) throw new Error('secrets: malformed sealed value');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * SECRETS_KEY when set; else DATA_DIR/secrets.key, created (mode 0600) by the first process that needs
 * it. `wx` makes creation atomic: two processes starting at once end up with the same key.
 */
export function loadSecretsKey(opts: { secretsKey?: Buffer; dataDir: string }): Buffer {
  if (opts.secretsKey) return opts.secretsKey;
  const file = path.join(opts.dataDir, 'secrets.key');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // A file just created by another process may not be written out yet: wait for its content.
  for (let i = 0; i < 50; i++) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length === 32) return key;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  throw new Error(`secrets: ${file} does not hold a 32-byte base64 key`);
}
