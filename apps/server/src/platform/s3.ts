// A small S3 client: AWS Signature Version 4 on node:crypto and fetch, for the four object calls the
// platform needs (PUT, GET, HEAD, DELETE). Works with AWS S3 and S3-compatible stores (MinIO, R2, B2,
// Spaces, Wasabi...) in path style or virtual-host style. ADR 040.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';

export type S3Settings = {
  /** e.g. https://s3.us-east-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: URL;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** https://host/bucket/key instead of https://bucket.host/key (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
};

const TIMEOUT_MS = 30_000;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** A refusal or failure of the store, with S3's own error code when it sent one. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20130524T000000Z` */
export function amzDate(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export type SignInput = {
  method: string;
  url: URL;
  /** Headers to sign besides host (lower-case names). x-amz-date and x-amz-content-sha256 are added. */
  headers: Record<string, string>;
  payloadHash: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  date: Date;
};

/** The headers of a SigV4-signed request (Authorization included), for the S3 service. */
export function signRequest(input: SignInput): Record<string, string> {
  const stamp = amzDate(input.date);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v])),
    'x-amz-date': stamp,
    'x-amz-content-sha256': input.payloadHash,
  };
  const all: Record<string, string> = { host: input.url.host, ...headers };
  const names = Object.keys(all).sort();
  const canonicalHeaders = names.map((n) => `${n}:${String(all[n]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...input.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  // S3 signs the path as sent (each segment encoded once), without normalising it.
  const canonicalRequest = [
    input.method,
    input.url.pathname || '/',
    query,
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), 's3'), 'aws4_request');
  const signature = crypto.createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** The error code and message of an S3 XML error body (HEAD answers have none). */
function parseError(status: number, text: string): S3Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? `HTTP ${status}`;
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
  return new S3Error(status, code, message ? `${code}: ${message}` : code);
}

export type S3Object = {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
};

export class S3Client {
  constructor(private readonly s: S3Settings) {}

  /** Where an object lives (the bucket in the path or in the host). */
  objectUrl(key: string): URL {
    const path = key.split('/').map(uriEncode).join('/');
    const base = new URL(this.s.endpoint.href);
    const prefix = base.pathname.replace(/\/+$/, '');
    if (this.s.forcePathStyle) {
      base.pathname = `${prefix}/${uriEncode(this.s.bucket)}/${path}`;
    } else {
      base.hostname = `${this.s.bucket}.${base.hostname}`;
      base.pathname = `${prefix}/${path}`;
    }
    return base;
  }

  private async send(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE',
    key: string,
    opts: {
      body?: Buffer;
      headers?: Record<string, string>;
      /** A file sent as a stream, with its length and hash known. */
      file?: { path: string; size: number; sha256: string };
    } = {},
  ): Promise<Response> {
    const url = this.objectUrl(key);
    const headers = signRequest({
      method,
      url,
      headers: opts.file
        ? { ...opts.headers, 'content-length': String(opts.file.size) }
        : (opts.headers ?? {}),
      payloadHash: opts.file ? opts.file.sha256 : opts.body ? sha256(opts.body) : EMPTY_SHA256,
      region: this.s.region,
      accessKeyId: this.s.accessKeyId,
      secretAccessKey: this.s.secretAccessKey,
      date: new Date(),
    });
    try {
      return await fetch(url, {
        method,
        headers,
        ...(opts.body ? { body: opts.body } : {}),
        ...(opts.file
          ? {
              body: Readable.toWeb(fs.createReadStream(opts.file.path)) as unknown as ReadableStream,
              duplex: 'half' as const,
            }
          : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const reason =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : '';
      throw new S3Error(0, 'NetworkError', `cannot reach ${url.origin}${reason ? ` (${reason})` : ''}`);
    }
  }

  /** Puts a file from disk as a stream (its size and SHA-256 known), for bodies too large to hold. */
  async putObjectFile(
    key: string,
    file: string,
    size: number,
    sha: string,
    contentType: string,
  ): Promise<void> {
    const res = await this.send('PUT', key, {
      file: { path: file, size, sha256: sha },
      headers: { 'content-type': contentType },
    });
    if (!res.ok) throw parseError(res.status, await res.text());
    await res.body?.cancel();
  }

  async putObject(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, { body, headers: { 'content-type': contentType } });
    if (!res.ok) throw parseError(res.status, await res.text());
    await res.body?.cancel();
  }

  /**
   * An object's bytes as a stream, or null when there is none. `range`, `if-none-match` and
   * `if-modified-since` are passed on, so a 206 or a 304 comes back as S3 answers it.
   */
  async getObject(key: string, conditions: Record<string, string> = {}): Promise<S3Object | null> {
    const res = await this.send('GET', key, { headers: conditions });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok && res.status !== 304 && res.status !== 416) throw parseError(res.status, await res.text());
    return { status: res.status, headers: res.headers, body: res.body };
  }

  /** The object's size and type, or null when there is none. */
  async headObject(key: string): Promise<{ size: number; contentType: string } | null> {
    const res = await this.send('HEAD', key);
    if (res.status === 404) return null;
    if (!res.ok) throw parseError(res.status, '');
    return {
      size: Number(res.headers.get('content-length') ?? 0),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  /** Removes an object; removing one that is not there is no error (as S3 answers 204 either way). */
  async deleteObject(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) throw parseError(res.status, await res.text());
    await res.body?.cancel();
  }
}
