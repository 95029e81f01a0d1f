// Message media on our storage: images sent from the inbox (data URLs, checked by their bytes) and images
// received by MMS (fetched from the carrier once). Files are stored as messages/<business>/<uuid>.<ext> in
// the platform's file store (local disk or an S3-compatible bucket, ADR 040), served as /uploads/... (the
// carrier fetches an outgoing MMS's image from there, so it must be public).
import crypto from 'node:crypto';
import type { TMessageMedia } from '@stn/contracts/chats';
import { keyOfUrl } from '../../platform/files.ts';
import { decodeImage, type ImageExt } from '../../platform/storage.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { carrierFor } from '../telephony/service.ts';

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

/**
 * A received MMS's media, fetched from the carrier by the carrier adapter: only from the carrier's own
 * hosts (Twilio's API and media CDN, or the sandbox in process), through the outbound guard, cut at
 * MAX_MEDIA_BYTES while streaming (ADR 049). A file that cannot be fetched is skipped and logged: the text
 * itself is kept. The keys of the files stored are pushed to `stored`, so that the caller removes them if
 * its transaction does not commit.
 */
export async function fetchIncomingMedia(
  ctx: Ctx,
  businessId: number,
  items: { url: string; contentType: string }[],
  stored: string[],
): Promise<TMessageMedia[]> {
  const out: TMessageMedia[] = [];
  const carrier = await carrierFor(ctx).catch(() => null);
  if (!carrier) return out;
  for (const item of items) {
    try {
      const res = await carrier.fetchMedia(item.url, { maxBytes: MAX_MEDIA_BYTES });
      const type = (item.contentType || res.contentType).split(';')[0]?.trim().toLowerCase() ?? '';
      const ext = EXT[type] ?? 'bin';
      const media = await store(
        ctx,
        businessId,
        res.body,
        ext,
        type || 'application/octet-stream',
        `media.${ext}`,
      );
      const key = keyOfUrl(media.url);
      if (key) stored.push(key);
      out.push(media);
    } catch (err) {
      ctx.deps.log.warn({ err, url: item.url }, 'incoming media not stored');
    }
  }
  return out;
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
