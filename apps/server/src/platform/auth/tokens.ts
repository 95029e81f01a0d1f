import crypto from 'node:crypto';

/** Opaque bearer token: 256 random bits. Only its SHA-256 is ever stored. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
