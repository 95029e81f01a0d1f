// Web Push with node:crypto (ADR 037): the message encryption of RFC 8291 (aes128gcm, RFC 8188) and the
// VAPID signature of RFC 8292. The same protocol as the `web-push` package, without a new dependency.
import {
  createCipheriv,
  createECDH,
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
} from 'node:crypto';

export type VapidKeys = { publicKey: string; privateKey: string };
export type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

const b64u = (buf: Buffer) => buf.toString('base64url');
const fromB64u = (s: string) => Buffer.from(s.replace(/=+$/, ''), 'base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** A new P-256 key pair: the public key uncompressed (65 bytes), the private key's 32 bytes, base64url. */
export function generateVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  const raw = Buffer.concat([Buffer.from([4]), fromB64u(String(pub.x)), fromB64u(String(pub.y))]);
  return { publicKey: b64u(raw), privateKey: String(priv.d) };
}

/** The VAPID Authorization header for one push service (aud is the endpoint's origin). */
export function vapidAuthorization(
  endpoint: string,
  keys: VapidKeys,
  subject: string,
  now = Date.now(),
): string {
  const header = b64u(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })));
  const claims = b64u(
    Buffer.from(
      JSON.stringify({
        aud: new URL(endpoint).origin,
        exp: Math.floor(now / 1000) + 12 * 3600,
        sub: subject,
      }),
    ),
  );
  const pub = fromB64u(keys.publicKey);
  const key = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: keys.privateKey,
      x: b64u(pub.subarray(1, 33)),
      y: b64u(pub.subarray(33, 65)),
    },
  });
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${header}.${claims}.${b64u(signature)}, k=${keys.publicKey}`;
}

const RECORD_SIZE = 4096;

/** The encrypted body of a push message for one subscription (RFC 8291, one aes128gcm record). */
export function encryptPayload(
  subscription: Subscription,
  payload: Buffer,
  opts: { salt?: Buffer; ephemeral?: ReturnType<typeof createECDH> } = {},
): Buffer {
  const uaPublic = fromB64u(subscription.keys.p256dh);
  const authSecret = fromB64u(subscription.keys.auth);
  const ecdh =
    opts.ephemeral ??
    (() => {
      const e = createECDH('prime256v1');
      e.generateKeys();
      return e;
    })();
  const asPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(uaPublic);
  const salt = opts.salt ?? randomBytes(16);

  // IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0 || ua_public || as_public, 32)
  const prkKey = hmac(authSecret, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);

  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.concat([payload, Buffer.from([2])])), cipher.final()]);
  const tag = cipher.getAuthTag();
  const rs = Buffer.alloc(4);
  rs.writeUInt32BE(RECORD_SIZE);
  return Buffer.concat([salt, rs, Buffer.from([asPublic.length]), asPublic, sealed, tag]);
}

export type PushResult = { status: number; gone: boolean };

/** Sends one push; a 404 or 410 from the push service means the subscription is gone. */
export async function sendPush(
  subscription: Subscription,
  payload: unknown,
  keys: VapidKeys,
  subject: string,
  fetcher: typeof fetch = fetch,
): Promise<PushResult> {
  const body = encryptPayload(subscription, Buffer.from(JSON.stringify(payload)));
  const res = await fetcher(subscription.endpoint, {
    method: 'POST',
    headers: {
      authorization: vapidAuthorization(subscription.endpoint, keys, subject),
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
      ttl: '86400',
      urgency: 'high',
    },
    body: new Uint8Array(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, gone: res.status === 404 || res.status === 410 };
}
