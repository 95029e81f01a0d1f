import fs from 'node:fs/promises';
import path from 'node:path';
import { AGENCY_IMAGE_MAX_BYTES, type TAgencyImageType } from '@stn/contracts/agencies';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { agencies } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid } from '../../platform/http/errors.ts';
import { findAgency } from './queries.ts';

const EXT_BY_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};
const EXTS = [...new Set(Object.values(EXT_BY_MIME))];

/** The declared type must match the bytes: a renamed executable or HTML page is refused. */
function contentMatches(ext: string, buf: Buffer): boolean {
  const head = buf.subarray(0, 12);
  switch (ext) {
    case 'png':
      return head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'jpg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'gif':
      return (
        head.subarray(0, 6).toString('latin1') === 'GIF87a' ||
        head.subarray(0, 6).toString('latin1') === 'GIF89a'
      );
    case 'webp':
      return (
        head.subarray(0, 4).toString('latin1') === 'RIFF' &&
        head.subarray(8, 12).toString('latin1') === 'WEBP'
      );
    case 'svg': {
      const text = buf.toString('utf8');
      // Logos are served from our own origin: an SVG that can run script is refused outright.
      if (/<script|\bon[a-z]+\s*=|javascript:|<foreignObject/i.test(text)) return false;
      return /<svg[\s>]/i.test(text);
    }
    default:
      return false;
  }
}

export function agencyUploadDir(dataDir: string, agencyId: number) {
  return path.join(dataDir, 'uploads', 'agencies', String(agencyId));
}

async function removeFiles(dir: string, type: TAgencyImageType) {
  await Promise.all(EXTS.map((ext) => fs.rm(path.join(dir, `${type}.${ext}`), { force: true })));
}

/**
 * Stores a logo or favicon sent as a data URL under <dataDir>/uploads/agencies/<id>/<type>.<ext> and
 * points branding[type] at it, with a version so that browsers fetch the new one.
 */
export async function uploadAgencyImage(
  deps: Deps,
  actor: Actor,
  id: number,
  input: { type: TAgencyImageType; data: string },
) {
  const agency = await findAgency(deps.db, actor, id);
  const m = /^data:([a-z0-9.+/-]+);base64,([A-Za-z0-9+/=\s]+)$/i.exec(input.data);
  const ext = m?.[1] ? EXT_BY_MIME[m[1].toLowerCase()] : undefined;
  if (!m?.[2] || !ext) throw invalid('data', 'agencies.image_invalid');
  const buf = Buffer.from(m[2], 'base64');
  if (buf.length > AGENCY_IMAGE_MAX_BYTES) throw invalid('data', 'agencies.image_too_large');
  if (buf.length === 0 || !contentMatches(ext, buf)) throw invalid('data', 'agencies.image_invalid');

  const dir = agencyUploadDir(deps.config.dataDir, agency.id);
  await fs.mkdir(dir, { recursive: true });
  await removeFiles(dir, input.type);
  await fs.writeFile(path.join(dir, `${input.type}.${ext}`), buf);
  const url = `/uploads/agencies/${agency.id}/${input.type}.${ext}?v=${Date.now()}`;
  const branding = { ...agency.branding, [input.type]: url };
  await deps.db.update(agencies).set({ branding, updated_at: new Date() }).where(eq(agencies.id, agency.id));
  return { type: input.type, url, branding };
}

export async function deleteAgencyImage(deps: Deps, actor: Actor, id: number, type: TAgencyImageType) {
  const agency = await findAgency(deps.db, actor, id);
  await removeFiles(agencyUploadDir(deps.config.dataDir, agency.id), type);
  const branding = { ...agency.branding, [type]: null };
  await deps.db.update(agencies).set({ branding, updated_at: new Date() }).where(eq(agencies.id, agency.id));
  return { type, url: null, branding };
}
