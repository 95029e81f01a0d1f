import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { WidgetInstall } from '../../platform/widget/tree.ts';
import { installs } from './tables.ts';

/** The active install with this key, with its business and agency still active; else null. */
export async function installByKey(deps: Deps, key: string): Promise<WidgetInstall | null> {
  const [row] = await deps.db
    .select()
    .from(installs)
    .where(and(eq(installs.key, key), eq(installs.status, 'active'), eq(installs.active, true)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    agencyId: row.agency_id,
    businessId: row.business_id,
    settings: row.settings,
    updatedAt: row.updated_at,
  };
}

/** A fresh install key: long and random, as it is the only thing a widget request presents. */
export function newInstallKey(): string {
  return crypto.randomBytes(18).toString('base64url');
}
