import fs from 'node:fs/promises';
import path from 'node:path';
import { AGENCY_IMAGE_MAX_BYTES, type TAgencyImageType } from '@stn/contracts/agencies';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Deps } from '../../platform/deps.ts';
import { decodeImage, IMAGE_EXTS } from '../../platform/storage.ts';
import { findAgency } from './queries.ts';
import { agencies } from './tables.ts';

const EXTS = IMAGE_EXTS;

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
  const { bytes: buf, ext } = decodeImage(input.data, {
    allowed: IMAGE_EXTS,
    maxBytes: AGENCY_IMAGE_MAX_BYTES,
    invalidKey: 'agencies.image_invalid',
    tooLargeKey: 'agencies.image_too_large',
  });

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
