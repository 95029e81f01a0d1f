// A browser's side of Web Push for tests (push.test.ts, the staff alerts' tests): its keys and subscription,
// and the decryption of what a push service hands it.
import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** A browser's side of RFC 8291: its keys, and the decryption of what the push service hands it. */
export function browser() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const subscription = (endpoint: string) => ({
    endpoint,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  });
  const decrypt = (body: Buffer): string => {
    const salt = body.subarray(0, 16);
    const idlen = body[20] ?? 0;
    const asPublic = body.subarray(21, 21 + idlen);
    const rest = body.subarray(21 + idlen);
    const shared = ecdh.computeSecret(asPublic);
    const prkKey = hmac(auth, shared);
    const ikm = hmac(
      prkKey,
      Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic, Buffer.from([1])]),
    );
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
    const d = createDecipheriv('aes-128-gcm', cek, nonce);
    d.setAuthTag(rest.subarray(rest.length - 16));
    const plain = Buffer.concat([d.update(rest.subarray(0, rest.length - 16)), d.final()]);
    expect(plain[plain.length - 1]).toBe(2);
    return plain.subarray(0, plain.length - 1).toString();
  };
  return { subscription, decrypt };
}
