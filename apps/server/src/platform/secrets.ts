// Secrets at rest (agencies' Twilio auth tokens and Stripe secret keys): AES-256-GCM with a key from
// SECRETS_KEY, or on a laptop a key generated once into DATA_DIR/secrets.key (ADR 016). A sealed value
// is `enc:v1:<iv>:<tag>:<ciphertext>` (base64url parts), so a plaintext left over from before is
// recognised and sealed by the start-up step. Rotation (ADR 100): values sealed under an earlier key still
// open with SECRETS_KEY_PREVIOUS, and `npm run cli -- secrets:rotate` re-seals them under the current key.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';

export type Secrets = {
  seal(plain: string): string;
  /**
   * The plaintext of a sealed value, under the current key or else one of the previous keys; a value that
   * is not sealed is returned as it is. A sealed value no key opens throws SecretsKeyError.
   */
  open(value: string): string;
  /**
   * The value sealed under the current key when it was sealed under a previous key; null when there is
   * nothing to do (sealed under the current key already, or not sealed). Throws as open does.
   */
  reseal(value: string): string | null;
  /**
   * A 32-byte key for one purpose (e.g. 'widget-token'), derived from the secrets key with HKDF-SHA256:
   * a key of one purpose reveals neither the secrets key nor another purpose's key.
   */
  derive(purpose: string): Buffer;
};

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/** A sealed value that neither the current key nor any previous key opens. */
export class SecretsKeyError extends Error {}

function openWith(key: Buffer, value: string): string | null {
  const [iv, tag, ct] = value.slice(PREFIX.length).split(':');
  if (!iv || !tag || ct === undefined) throw new Error('secrets: malformed sealed value');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // GCM's tag check: another key, or a tampered value.
    return null;
  }
}

/**
 * Seals with `key`; opens with `key` or else each of `previous` (SECRETS_KEY_PREVIOUS, ADR 100). Keys
 * derived for a purpose come from the current key only.
 */
export function createSecrets(key: Buffer, previous: readonly Buffer[] = []): Secrets {
  if (key.length !== 32 || previous.some((k) => k.length !== 32))
    throw new Error('secrets: the key must be 32 bytes');
  const derived = new Map<string, Buffer>();
  const older = previous.filter((k) => !k.equals(key));
  const openOlder = (value: string): string => {
    for (const k of older) {
      const plain = openWith(k, value);
      if (plain !== null) return plain;
    }
    throw new SecretsKeyError(
      older.length > 0
        ? 'secrets: a sealed value opens neither with SECRETS_KEY nor with SECRETS_KEY_PREVIOUS: it was sealed under another key'
        : 'secrets: a sealed value does not open with the secrets key (SECRETS_KEY): it was sealed under another key; set that key in SECRETS_KEY_PREVIOUS (ADR 100)',
    );
  };
  const seal = (plain: string) => {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${PREFIX}${iv.toString('base64url')}:${tag.toString('base64url')}:${ct.toString('base64url')}`;
  };
  return {
    derive(purpose) {
      let out = derived.get(purpose);
      if (!out) {
        out = Buffer.from(crypto.hkdfSync('sha256', key, Buffer.alloc(0), `stn:${purpose}`, 32));
        derived.set(purpose, out);
      }
      return out;
    },
    seal,
    open(value) {
      if (!isSealed(value)) return value;
      return openWith(key, value) ?? openOlder(value);
    },
    reseal(value) {
      if (!isSealed(value) || openWith(key, value) !== null) return null;
      return seal(openOlder(value));
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
