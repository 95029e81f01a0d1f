import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { widgetOf } from '../../platform/widget/tree.ts';
import { publicSettings } from './service.ts';

/** The widget's public settings (never the staff phones or the business's own contacts). Cached by browsers and CDNs, revalidated by ETag. */
export async function installsWidgetRoutes(tree: FastifyInstance): Promise<void> {
  tree.get('/v1/config', { schema: { tags: ['widget'], hide: false } }, async (request, reply) => {
    const { install } = widgetOf(request);
    const body = JSON.stringify({
      success: true,
      data: { id: install.id, settings: publicSettings(install.settings) },
    });
    const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', 'public, max-age=60, must-revalidate');
    reply.header('vary', 'Origin, X-Install-Key');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
