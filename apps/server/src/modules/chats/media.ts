// Message media on our storage: images sent from the inbox (data URLs, checked by their bytes) and images
// received by MMS (fetched from the carrier once). Files are stored as messages/<business>/<uuid>.<ext> in
// the platform's file store (local disk or an S3-compatible bucket, ADR 040), served as /uploads/... (the
// carrier fetches an outgoing MMS's image from there, so it must be public).
import crypto from 'node:crypto';
import type { TMessageMedia } from '@stn/contracts/chats';
import { decodeImage, type ImageExt } from '../../platform/storage.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

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
 * A received MMS's media, fetched from the carrier (with the account's credentials, as Twilio's media
 * URLs may require). A file that cannot be fetched is skipped and logged: the text itself is kept.
 */
export async function fetchIncomingMedia(
  ctx: Ctx,
  businessId: number,
  items: { url: string; contentType: string }[],
  auth: { accountSid: string; authToken: string } | null,
): Promise<TMessageMedia[]> {
  const out: TMessageMedia[] = [];
  for (const item of items) {
    try {
      const headers: Record<string, string> = {};
      // The account's credentials go to the carrier's own host only.
      if (auth && new URL(item.url).hostname.endsWith('.twilio.com'))
        headers.authorization = `Basic ${Buffer.from(`${auth.accountSid}:${auth.authToken}`).toString('base64')}`;
      const res = await fetch(item.url, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`media fetch answered ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > MAX_MEDIA_BYTES) throw new Error('media too large');
      const type =
        (item.contentType || res.headers.get('content-type') || '').split(';')[0]?.trim().toLowerCase() ?? '';
      const ext = EXT[type] ?? 'bin';
      out.push(await store(ctx, businessId, bytes, ext, type || 'application/octet-stream', `media.${ext}`));
    } catch (err) {
      ctx.deps.log.warn({ err, url: item.url }, 'incoming media not stored');
    }
  }
  return out;
}
