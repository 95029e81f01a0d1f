import { formatSize } from '@stn/contracts/format';
import { invalid } from './http/errors.ts';
import { svgProblem } from './svg.ts';

// Images sent as data URLs (logos, favicons): decoded and checked by their bytes, never trusted by the
// declared type alone, since they are served from our own origin.

export type ImageExt = 'png' | 'jpg' | 'gif' | 'webp' | 'svg';

const EXT_BY_MIME: Record<string, ImageExt> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

export const IMAGE_EXTS: readonly ImageExt[] = ['png', 'jpg', 'gif', 'webp', 'svg'];

/** The declared type must match the bytes: a renamed executable or HTML page is refused. */
function contentMatches(ext: ImageExt, buf: Buffer): boolean {
  const head = buf.subarray(0, 12);
  switch (ext) {
    case 'png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'jpg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'gif':
      return ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'));
    case 'webp':
      return (
        head.subarray(0, 4).toString('latin1') === 'RIFF' &&
        head.subarray(8, 12).toString('latin1') === 'WEBP'
      );
    case 'svg':
      // Checked by parsing in decodeImage (./svg.ts).
      return true;
  }
}

/**
 * Decodes a data URL into checked image bytes, or answers 422 on `data` with the caller's message keys
 * (`invalidKey`: not an allowed image; `tooLargeKey`: over `maxBytes`, with {size}).
 */
export function decodeImage(
  dataUrl: string,
  opts: { allowed: readonly ImageExt[]; maxBytes: number; invalidKey: string; tooLargeKey: string },
): { bytes: Buffer; ext: ImageExt } {
  const m = /^data:([a-z0-9.+/-]+);base64,([A-Za-z0-9+/=\s]+)$/i.exec(dataUrl.trim());
  const ext = m?.[1] ? EXT_BY_MIME[m[1].toLowerCase()] : undefined;
  if (!m?.[2] || !ext || !opts.allowed.includes(ext)) throw invalid('data', opts.invalidKey);
  const bytes = Buffer.from(m[2].replace(/\s/g, ''), 'base64');
  if (bytes.length > opts.maxBytes)
    throw invalid('data', opts.tooLargeKey, { size: formatSize(opts.maxBytes) });
  if (ext === 'svg') {
    // Parsed as XML (ADR 049). A DTD can declare entities that expand without end or read other files;
    // script, handlers, javascript: links and embedded documents are refused: each with its own reason.
    const text = bytes.toString('utf8');
    const problem = /<!(DOCTYPE|ENTITY)/i.test(text) ? 'dtd' : svgProblem(text);
    if (problem === 'dtd') throw invalid('data', 'validation.svg_dtd');
    if (problem === 'active') throw invalid('data', 'validation.svg_active');
    if (problem === 'invalid') throw invalid('data', opts.invalidKey);
  }
  if (bytes.length === 0 || !contentMatches(ext, bytes)) throw invalid('data', opts.invalidKey);
  return { bytes, ext };
}
