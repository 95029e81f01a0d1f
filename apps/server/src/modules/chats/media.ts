// Message media on our storage: images sent from the inbox (data URLs, checked by their bytes) and images
// received by MMS (fetched from the carrier once). Files are stored as messages/<business>/<uuid>.<ext> in
// the platform's file store (local disk or an S3-compatible bucket, ADR 040), served as /uploads/... (the
// carrier fetches an outgoing MMS's image from there, so it must be public).
import crypto from 'node:crypto';
import { messageCount, type TMessageMedia } from '@stn/contracts/chats';
import { and, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { CarrierError } from '../../platform/carrier/carrier.ts';
import { publish } from '../../platform/events/events.ts';
import { keyOfUrl } from '../../platform/files.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { decodeImage, type ImageExt } from '../../platform/storage.ts';
import { type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { carrierFor } from '../telephony/service.ts';
import { messageUpdated } from './events.ts';
import { messages } from './tables.ts';
import { countIncoming } from './usage.ts';

export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
  'text/vcard': 'vcf',
};

async function store(
  ctx: Ctx,
  businessId: number,
  bytes: Buffer,
  ext: string,
  contentType: string,
  name: string,
) {
  const file = `${crypto.randomUUID()}.${ext}`;
  const url = await ctx.deps.storage.put(`messages/${businessId}/${file}`, bytes, contentType);
  return {
    url,
    content_type: contentType,
    size: bytes.length,
    name: name || file,
  } satisfies TMessageMedia;
}

/** An image the inbox sends, as a data URL: checked and stored (422 on `media` when it is not an image). */
export async function storeOutgoingImage(
  ctx: Ctx,
  businessId: number,
  dataUrl: string,
): Promise<TMessageMedia> {
  const { bytes, ext } = decodeImage(dataUrl, {
    allowed: ['png', 'jpg', 'gif', 'webp'] satisfies ImageExt[],
    maxBytes: MAX_MEDIA_BYTES,
    invalidKey: 'messages.media_invalid',
    tooLargeKey: 'messages.media_too_large',
  });
  return store(ctx, businessId, bytes, ext, MIME[ext] ?? 'application/octet-stream', `image.${ext}`);
}

export type IncomingMedia = { url: string; contentType: string };

/** How many MMS a process fetches media for at once (each a job; a burst waits its turn in the queue). */
export const INBOUND_MEDIA_CONCURRENCY = 4;

/**
 * A received MMS's media, fetched after its row was committed, by the delivery that inserted it (the job
 * is enqueued in that transaction: a duplicate inserts nothing and enqueues nothing). No transaction is
 * open while fetching. Fetched by the carrier adapter: only from the carrier's own hosts (Twilio's API and
 * media CDN, or the sandbox in process), through the outbound guard, cut at MAX_MEDIA_BYTES while
 * streaming (ADR 049). A media the carrier refuses (off its hosts, gone, too large) is unavailable at once;
 * any other failure (the carrier unreachable, the account not readable) is retried by the job, and counted
 * unavailable after the last attempt. The files are attached in one conditional update and announced
 * (`message.updated`); files of a run that did not attach them are removed.
 */
export const inboundMediaJob = defineJob({
  name: 'chats.inbound-media',
  payload: z.object({
    agencyId: z.number(),
    businessId: z.number(),
    messageId: z.number(),
    media: z.array(z.object({ url: z.string(), contentType: z.string() })).max(10),
  }),
  // After about 2, 4 and 8 s (pg-boss's backoff): a carrier's short trouble, then the media is given up.
  retry: { limit: 3, delaySeconds: 2, backoff: true },
  concurrency: INBOUND_MEDIA_CONCURRENCY,
  handler: async (deps, p, run) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'inbound media' },
    );
    await attachIncomingMedia(ctx, p, run.isLastAttempt);
  },
});

/** A carrier's answer that another attempt will not change (refused URL, not found, too large). */
const permanent = (err: unknown) => err instanceof CarrierError && err.status >= 400 && err.status < 500;

async function attachIncomingMedia(
  ctx: Ctx,
  p: { businessId: number; messageId: number; media: IncomingMedia[] },
  lastAttempt: boolean,
): Promise<void> {
  const [row] = await ctx.deps.db
    .select({ pending: messages.media_pending, body: messages.body, segments: messages.segments })
    .from(messages)
    .where(eq(messages.id, p.messageId));
  if (!row || row.pending === 0) return;
  const stored: string[] = [];
  const media: TMessageMedia[] = [];
  let unavailable = 0;
  let retry: unknown = null;
  try {
    const carrier = await carrierFor(ctx).catch((err: unknown) => {
      if (!lastAttempt) throw err;
      ctx.deps.log.warn({ err, message: p.messageId }, 'incoming media not fetched: no carrier');
      return null;
    });
    for (const item of p.media) {
      if (!carrier) {
        unavailable++;
        continue;
      }
      try {
        const res = await carrier.fetchMedia(item.url, { maxBytes: MAX_MEDIA_BYTES });
        const type = (item.contentType || res.contentType).split(';')[0]?.trim().toLowerCase() ?? '';
        const ext = EXT[type] ?? 'bin';
        const file = await store(
          ctx,
          p.businessId,
          res.body,
          ext,
          type || 'application/octet-stream',
          `media.${ext}`,
        );
        const key = keyOfUrl(file.url);
        if (key) stored.push(key);
        media.push(file);
      } catch (err) {
        ctx.deps.log.warn({ err, url: item.url, message: p.messageId }, 'incoming media not stored');
        if (!permanent(err) && !lastAttempt) retry ??= err;
        unavailable++;
      }
    }
    // Fetched again, all of them, on the next attempt.
    if (retry) throw retry;
    const attached = await inTransaction(ctx, async (tx) => {
      const segments = messageCount('in', row.body, media.length);
      const [updated] = await tx.db
        .update(messages)
        .set({ media, media_pending: 0, media_unavailable: unavailable, segments, updated_at: new Date() })
        .where(and(eq(messages.id, p.messageId), gt(messages.media_pending, 0)))
        .returning();
      if (!updated) return false;
      const extra = updated.segments - row.segments;
      if (extra > 0) tx.afterCommit(() => countIncoming(tx, { count: extra }));
      publish(tx, messageUpdated, {
        messageId: updated.id,
        agencyId: updated.agency_id,
        businessId: updated.business_id,
        contactId: updated.contact_id,
      });
      return true;
    });
    // Another run attached its own files first: these are not needed.
    if (!attached) await removeStoredMedia(ctx, stored);
  } catch (err) {
    await removeStoredMedia(ctx, stored);
    throw err;
  }
}

/** Removes files stored for a message that was not recorded after all. */
export async function removeStoredMedia(ctx: Ctx, keys: string[]): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      ctx.deps.storage
        .delete(key)
        .catch((err: unknown) => ctx.deps.log.warn({ err, key }, 'media not removed')),
    ),
  );
}
