// A minimal S3-compatible server for the tests (ADR 040): path-style PUT/GET/HEAD/DELETE of objects in
// one bucket, kept in memory, on 127.0.0.1. It checks AWS Signature Version 4 strictly, computed here on
// its own from the request as received (not with the platform's signer): a wrong key, a wrong secret, a
// changed header, path or body, a stale date or an unsigned x-amz-* header is refused as S3 refuses it.
// Why not s3rver: its V4 check only looks the access key up ("Signature version 4 calculation is
// unimplemented"), so a wrong secret would pass.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StoredObject = { body: Buffer; contentType: string; etag: string; lastModified: Date };

export type TestS3 = {
  /** e.g. http://127.0.0.1:41234 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, StoredObject>;
  /** Every request answered, in order (method, key, status). */
  log: { method: string; key: string; status: number }[];
  /** The environment that points the platform at this server. */
  env: () => Record<string, string>;
  close: () => Promise<void>;
};

const SKEW_MS = 15 * 60 * 1000;
const hex = (d: string | Buffer) => crypto.createHash('sha256').update(d).digest('hex');
const mac = (k: Buffer | string, d: string) => crypto.createHmac('sha256', k).update(d, 'utf8').digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function canonicalQuery(raw: string): string {
  if (!raw) return '';
  return raw
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const i = pair.indexOf('=');
      const k = decodeURIComponent(i < 0 ? pair : pair.slice(0, i));
      const v = i < 0 ? '' : decodeURIComponent(pair.slice(i + 1).replace(/\+/g, ' '));
      return `${rfc3986(k)}=${rfc3986(v)}`;
    })
    .sort()
    .join('&');
}

export async function startTestS3(
  opts: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<TestS3> {
  const bucket = opts.bucket ?? 'stn-media';
  const region = opts.region ?? 'us-east-1';
  const accessKeyId = opts.accessKeyId ?? 'TESTACCESSKEY0000001';
  const secretAccessKey = opts.secretAccessKey ?? crypto.randomBytes(30).toString('base64');
  const objects = new Map<string, StoredObject>();
  const log: TestS3['log'] = [];

  function verify(req: http.IncomingMessage, body: Buffer) {
    const auth = req.headers.authorization ?? '';
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) throw new Refusal(403, 'AccessDenied', 'Access Denied');
    const [, keyId, day, credRegion, signedList, given] = m as unknown as string[];
    if (keyId !== accessKeyId)
      throw new Refusal(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    if (credRegion !== region)
      throw new Refusal(
        400,
        'AuthorizationHeaderMalformed',
        `the region '${credRegion}' is wrong; expecting '${region}'`,
      );
    const stamp = String(req.headers['x-amz-date'] ?? '');
    const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
    if (!when || stamp.slice(0, 8) !== day) throw new Refusal(403, 'AccessDenied', 'bad x-amz-date');
    const [y, mo, d, hh, mi, ss] = when.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const t = Date.UTC(y, mo - 1, d, hh, mi, ss);
    if (Math.abs(Date.now() - t) > SKEW_MS)
      throw new Refusal(
        403,
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== hex(body))
      throw new Refusal(
        400,
        'XAmzContentSHA256Mismatch',
        'The provided x-amz-content-sha256 header does not match what was computed.',
      );
    const signed = String(signedList).split(';');
    for (const needed of ['host', 'x-amz-date', 'x-amz-content-sha256'])
      if (!signed.includes(needed)) throw new Refusal(403, 'AccessDenied', `${needed} must be signed`);
    for (const h of Object.keys(req.headers))
      if (h.startsWith('x-amz-') && !signed.includes(h))
        throw new Refusal(
          403,
          'AccessDenied',
          `There were headers present in the request which were not signed: ${h}`,
        );
    const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?');
    const headerLines = signed
      .map((h) => {
        const v = req.headers[h];
        const value = Array.isArray(v) ? v.join(',') : (v ?? '');
        return `${h}:${value.trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const canonical = [
      req.method,
      rawPath,
      canonicalQuery(rawQuery),
      headerLines,
      signedList,
      payloadHash,
    ].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = `AWS4-HMAC-SHA256\n${stamp}\n${scope}\n${hex(canonical)}`;
    let k = mac(`AWS4${secretAccessKey}`, String(day));
    for (const part of [region, 's3', 'aws4_request']) k = mac(k, part);
    const expected = crypto.createHmac('sha256', k).update(toSign).digest();
    const got = Buffer.from(String(given), 'hex');
    if (got.length !== expected.length || !crypto.timingSafeEqual(got, expected))
      throw new Refusal(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      );
  }

  function answer(req: http.IncomingMessage, res: http.ServerResponse, key: string, body: Buffer) {
    const obj = objects.get(key);
    switch (req.method) {
      case 'PUT': {
        const etag = `"${crypto.createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
          lastModified: new Date(),
        });
        res.writeHead(200, { etag }).end();
        return 200;
      }
      case 'DELETE':
        objects.delete(key);
        res.writeHead(204).end();
        return 204;
      case 'GET':
      case 'HEAD': {
        if (!obj) throw new Refusal(404, 'NoSuchKey', 'The specified key does not exist.');
        const headers: Record<string, string> = {
          'content-type': obj.contentType,
          etag: obj.etag,
          'last-modified': obj.lastModified.toUTCString(),
          'accept-ranges': 'bytes',
        };
        if (req.headers['if-none-match'] === obj.etag) {
          res.writeHead(304, headers).end();
          return 304;
        }
        const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
        let start = 0;
        let end = obj.body.length - 1;
        let status = 200;
        if (range && (range[1] || range[2])) {
          if (range[1]) {
            start = Number(range[1]);
            if (range[2]) end = Math.min(Number(range[2]), end);
          } else start = Math.max(0, obj.body.length - Number(range[2]));
          if (start > end) throw new Refusal(416, 'InvalidRange', 'The requested range is not satisfiable');
          status = 206;
          headers['content-range'] = `bytes ${start}-${end}/${obj.body.length}`;
        }
        const part = obj.body.subarray(start, end + 1);
        headers['content-length'] = String(part.length);
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : part);
        return status;
      }
      default:
        throw new Refusal(
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        );
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
      const [, b = '', ...rest] = rawPath.split('/');
      const key = rest.map((s) => decodeURIComponent(s)).join('/');
      try {
        verify(req, body);
        if (decodeURIComponent(b) !== bucket)
          throw new Refusal(404, 'NoSuchBucket', 'The specified bucket does not exist');
        if (!key) throw new Refusal(400, 'InvalidRequest', 'this test server has object calls only');
        log.push({ method: req.method ?? '', key, status: answer(req, res, key, body) });
      } catch (err) {
        const r = err instanceof Refusal ? err : new Refusal(500, 'InternalError', String(err));
        log.push({ method: req.method ?? '', key, status: r.status });
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${r.code}</Code><Message>${r.message}</Message></Error>`;
        res.writeHead(r.status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : xml);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    log,
    env: () => ({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
