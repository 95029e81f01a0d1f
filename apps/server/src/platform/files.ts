// Where uploaded and received files live (ADR 040): one store for the whole process, local disk under
// <DATA_DIR>/uploads by default or an S3-compatible bucket (STORAGE_DRIVER=s3). Every file has a key such
// as `messages/12/<uuid>.png`; its URL is always our own `/uploads/<key>`, whatever the driver, so stored
// URLs survive a change of driver and the carrier always reaches them where it reaches our webhooks.

import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from './config.ts';
import { S3Client, S3Error } from './s3.ts';
import { IMAGE_EXTS, type ImageExt } from './storage.ts';

export const UPLOADS_PREFIX = '/uploads/';

/** Keys are our own: segments of letters, digits, dot, dash and underscore, never `..`. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function assertKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((s) => s === '..' || s === '.'))
    throw new Error(`invalid storage key: ${key}`);
  return key;
}

/** The key of one of our `/uploads/...` URLs (a `?v=` version dropped), or null for any other URL. */
export function keyOfUrl(url: string): string | null {
  if (!url.startsWith(UPLOADS_PREFIX)) return null;
  const key = url.slice(UPLOADS_PREFIX.length).split('?')[0] ?? '';
  return KEY.test(key) && !key.split('/').includes('..') ? key : null;
}

export interface FileStore {
  readonly driver: 'local' | 's3';
  /** Stores the bytes under the key (replacing what was there) and answers the file's URL. */
  put(key: string, bytes: Buffer | string, contentType: string): Promise<string>;
  /** Removes the file; a file that is not there is no error. */
  delete(key: string): Promise<void>;
  /**
   * Stores a stream under the key without holding it in memory (a recording of up to 160 MiB): written
   * aside and put in place once whole, so a stream that fails (cut at its limit, a timeout) leaves no file.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<string>;
  /** The file's bytes, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** The file as a stream, or null when there is none. */
  readStream(key: string): Promise<Readable | null>;
  /** Our own URL of the key: `/uploads/<key>`. */
  url(key: string): string;
  /**
   * An absolute URL others (the carrier fetching an MMS's image) can fetch a stored URL at: the public
   * bucket's when S3_PUBLIC_URL is set, else ours under `base`.
   */
  absoluteUrl(url: string, base: string): string;
  /** Answers GET/HEAD /uploads/* (public, unguessable names; shown, never run). */
  serve(app: FastifyInstance): Promise<void>;
  /** Start-up check: the store can be written to with these settings (a clear error otherwise). */
  check(): Promise<void>;
}

export class StorageError extends Error {
  override name = 'StorageError';
}

// Uploaded files are shown, never run: an SVG opened on its own cannot execute script.
const SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
// They are public (unguessable names) and shown on other sites too: the widget's icon and logo are <img>
// on a business's pages, which helmet's `same-origin` resource policy would block (issue 17).
const RESOURCE_POLICY = 'cross-origin';

function localStore(dataDir: string): FileStore {
  const root = path.join(dataDir, 'uploads');
  const file = (key: string) => path.join(root, ...assertKey(key).split('/'));
  return {
    driver: 'local',
    async put(key, bytes) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, bytes);
      return `${UPLOADS_PREFIX}${key}`;
    },
    async putStream(key, body) {
      const target = file(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const part = `${target}.${crypto.randomUUID()}.part`;
      try {
        await pipeline(body, fs.createWriteStream(part));
        await fsp.rename(part, target);
      } catch (err) {
        await fsp.rm(part, { force: true });
        throw err;
      }
      return `${UPLOADS_PREFIX}${key}`;
    },
    async readStream(key) {
      try {
        const handle = await fsp.open(file(key));
        return handle.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await fsp.rm(file(key), { force: true });
    },
    async read(key) {
      try {
        return await fsp.readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    url: (key) => `${UPLOADS_PREFIX}${assertKey(key)}`,
    absoluteUrl: (url, base) => `${base}${url}`,
    async serve(app) {
      fs.mkdirSync(root, { recursive: true });
      await app.register(fastifyStatic, {
        root,
        prefix: UPLOADS_PREFIX,
        decorateReply: false,
        setHeaders: (res) => {
          res.setHeader('content-security-policy', SANDBOX_CSP);
          res.setHeader('cross-origin-resource-policy', RESOURCE_POLICY);
        },
      });
    },
    async check() {
      await fsp.mkdir(root, { recursive: true });
    },
  };
}

/** Response headers of S3's answer that the browser gets as they are. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'etag', 'last-modified'];
/** Request headers passed on to S3, so that ranges and revalidation work as with local files. */
const CONDITIONS = ['range', 'if-none-match', 'if-modified-since'];

function s3Store(s: NonNullable<Config['s3']>): FileStore {
  const client = new S3Client(s);
  const publicBase = s.publicUrl?.replace(/\/+$/, '');
  const notFound = (reply: FastifyReply) => reply.callNotFound();
  return {
    driver: 's3',
    async put(key, bytes, contentType) {
      await client.putObject(assertKey(key), Buffer.from(bytes), contentType);
      return `${UPLOADS_PREFIX}${key}`;
    },
    async putStream(key, body, contentType) {
      // S3 wants the length and the payload's hash up front: the stream is spooled to a temporary file
      // (hashed while written), then sent from there.
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'stn-put-'));
      const spool = path.join(dir, 'body');
      try {
        const hash = crypto.createHash('sha256');
        let size = 0;
        await pipeline(
          body,
          new Transform({
            transform(chunk: Buffer, _enc, done) {
              hash.update(chunk);
              size += chunk.length;
              done(null, chunk);
            },
          }),
          fs.createWriteStream(spool),
        );
        await client.putObjectFile(assertKey(key), spool, size, hash.digest('hex'), contentType);
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
      return `${UPLOADS_PREFIX}${key}`;
    },
    async readStream(key) {
      const obj = await client.getObject(assertKey(key));
      if (!obj?.body) return null;
      return Readable.fromWeb(obj.body as import('node:stream/web').ReadableStream);
    },
    async delete(key) {
      await client.deleteObject(assertKey(key));
    },
    async read(key) {
      const obj = await client.getObject(assertKey(key));
      if (!obj?.body) return null;
      return Buffer.from(await new Response(obj.body).arrayBuffer());
    },
    url: (key) => `${UPLOADS_PREFIX}${assertKey(key)}`,
    absoluteUrl(url, base) {
      const key = keyOfUrl(url);
      return publicBase && key ? `${publicBase}/${key}` : `${base}${url}`;
    },
    async serve(app) {
      // The same public URLs as on local disk: streamed from the bucket (private buckets work, the
      // browser and the carrier see our origin and our headers), or sent to the public bucket/CDN.
      app.route({
        method: ['GET', 'HEAD'],
        url: `${UPLOADS_PREFIX}*`,
        schema: { hide: true },
        handler: async (request, reply) => {
          const key = (request.params as { '*': string })['*'];
          if (!KEY.test(key) || key.split('/').includes('..')) return notFound(reply);
          if (publicBase) return reply.redirect(`${publicBase}/${key}`, 302);
          const conditions: Record<string, string> = {};
          for (const h of CONDITIONS) {
            const v = request.headers[h];
            if (typeof v === 'string') conditions[h] = v;
          }
          let obj: Awaited<ReturnType<S3Client['getObject']>>;
          try {
            obj = await client.getObject(key, conditions);
          } catch (err) {
            request.log.error({ err, key }, 'storage: reading a file failed');
            return reply.status(502).type('text/plain').send('Storage unavailable');
          }
          if (!obj) return notFound(reply);
          reply.status(obj.status);
          for (const h of PASSED_HEADERS) {
            const v = obj.headers.get(h);
            if (v) reply.header(h, v);
          }
          reply.header('accept-ranges', 'bytes');
          reply.header('cache-control', 'public, max-age=0');
          reply.header('content-security-policy', SANDBOX_CSP);
          reply.header('cross-origin-resource-policy', RESOURCE_POLICY);
          if (request.method === 'HEAD' || !obj.body || obj.status === 304) {
            await obj.body?.cancel();
            return reply.send();
          }
          return reply.send(Readable.fromWeb(obj.body as import('node:stream/web').ReadableStream));
        },
      });
    },
    async check() {
      // Writes, reads and removes a small file: wrong keys, a missing bucket or a read-only key fail here.
      const key = `.startup-check/${process.pid}-${Date.now()}`;
      const where = `${s.endpoint.origin} bucket "${s.bucket}"`;
      try {
        await client.putObject(key, Buffer.from('ok'), 'text/plain');
        if (!(await client.headObject(key)))
          throw new S3Error(404, 'NoSuchKey', 'the file just written is not there');
        await client.deleteObject(key);
      } catch (err) {
        const reason = err instanceof S3Error ? describe(err) : String(err);
        throw new StorageError(`S3 storage at ${where} cannot be used: ${reason}`);
      }
    },
  };
}

function describe(err: S3Error): string {
  if (err.code === 'SignatureDoesNotMatch' || err.code === 'InvalidAccessKeyId')
    return `the store refused S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY (${err.message})`;
  if (err.code === 'NoSuchBucket') return `there is no such bucket (${err.message})`;
  if (err.status === 403)
    return `access denied (${err.message}); the key needs to put, get and delete objects`;
  return err.message;
}

export function createFileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  return config.s3 ? s3Store(config.s3) : localStore(config.dataDir);
}

const IMAGE_MIME: Record<ImageExt, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/**
 * Stores a named image (`<folder>/<name>.<ext>`, e.g. an agency's logo) and removes the same image in
 * other formats; answers its URL with a version, so that browsers fetch the new one.
 */
export async function putNamedImage(
  store: FileStore,
  folder: string,
  name: string,
  image: { bytes: Buffer; ext: ImageExt },
): Promise<string> {
  const url = await store.put(`${folder}/${name}.${image.ext}`, image.bytes, IMAGE_MIME[image.ext]);
  await Promise.all(
    IMAGE_EXTS.filter((e) => e !== image.ext).map((e) => store.delete(`${folder}/${name}.${e}`)),
  );
  return `${url}?v=${Date.now()}`;
}

/** Removes a named image in every format. */
export async function removeNamedImage(store: FileStore, folder: string, name: string): Promise<void> {
  await Promise.all(IMAGE_EXTS.map((e) => store.delete(`${folder}/${name}.${e}`)));
}
