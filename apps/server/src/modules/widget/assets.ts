// The website widget's files (apps/widget/dist, built by `npm run build -w apps/widget`):
//   GET /widget.js          the loader the embed code names: a short cache, revalidated by ETag, as its
//                           content (the app's hashed name) changes with every release
//   GET /widget/<file>.js   the app and its chunks: hashed names, cached for a year (immutable)
// Served from any site (the widget lives on businesses' pages): CORS `*` and a cross-origin resource
// policy, as they are public static files. The .br or .gz the build writes beside each file is sent
// when the browser accepts it. Without a build, a 503 says how to make one (docs/decisions/043).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Encoded = { body: Buffer; encoding: 'br' | 'gzip' | null };
type Entry = { mtimeMs: number; etag: string; raw: Buffer; br: Buffer | null; gzip: Buffer | null };

const CHUNK = /^[A-Za-z0-9_-]{1,80}\.js$/;
const NOT_BUILT =
  'The website widget is not built. Run `npm run build -w apps/widget` (npm start and npm test build it).';

/** Reads a built file and its precompressed siblings, kept in memory until the file changes. */
function reader() {
  const cache = new Map<string, Entry>();
  const optional = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : null);
  return (file: string): Entry | null => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return null;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit;
    const raw = fs.readFileSync(file);
    const entry: Entry = {
      mtimeMs: stat.mtimeMs,
      etag: `"${crypto.createHash('sha1').update(raw).digest('base64url')}"`,
      raw,
      br: optional(`${file}.br`),
      gzip: optional(`${file}.gz`),
    };
    cache.set(file, entry);
    return entry;
  };
}

/** The best body the request accepts: brotli, then gzip, then the file as it is. */
export function pickEncoding(accept: string | undefined, entry: Pick<Entry, 'raw' | 'br' | 'gzip'>): Encoded {
  const accepts = (name: string) => {
    for (const part of (accept ?? '').split(',')) {
      const [token, ...params] = part.trim().split(';');
      if (token?.trim().toLowerCase() !== name) continue;
      const q = params.find((p) => p.trim().startsWith('q='));
      return !q || Number(q.trim().slice(2)) > 0;
    }
    return false;
  };
  if (entry.br && accepts('br')) return { body: entry.br, encoding: 'br' };
  if (entry.gzip && accepts('gzip')) return { body: entry.gzip, encoding: 'gzip' };
  return { body: entry.raw, encoding: null };
}

export async function widgetAssetsRoutes(app: FastifyInstance, opts: { dist: string }): Promise<void> {
  const read = reader();

  const send = (request: FastifyRequest, reply: FastifyReply, file: string, immutable: boolean) => {
    const entry = read(file);
    if (!entry) {
      const built = fs.existsSync(path.join(opts.dist, 'widget.js'));
      return built
        ? reply.status(404).type('text/plain; charset=utf-8').send('Not found')
        : reply.status(503).header('retry-after', '60').type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('vary', 'accept-encoding');
    reply.header('etag', entry.etag);
    reply.header(
      'cache-control',
      immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
    );
    reply.type('application/javascript; charset=utf-8');
    if (request.headers['if-none-match'] === entry.etag) return reply.status(304).send();
    const { body, encoding } = pickEncoding(request.headers['accept-encoding'], entry);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  app.get('/widget.js', { schema: { hide: true } }, (request, reply) =>
    send(request, reply, path.join(opts.dist, 'widget.js'), false),
  );
  app.get<{ Params: { file: string } }>('/widget/:file', { schema: { hide: true } }, (request, reply) => {
    const { file } = request.params;
    if (!CHUNK.test(file)) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return send(request, reply, path.join(opts.dist, 'widget', file), true);
  });
}
