// The support chat of spec 000 §2 Layout (issue 11): the platform's own website widget, loaded by the web
// app for agencies and for businesses under the main agency. The platform admin picks the two installs
// (ADR 042); the profile carries the key of the one to load for the signed-in user.

import type { TListQuery } from '@stn/contracts/http';
import type { TRoleGroup } from '@stn/contracts/roles';
import type {
  TSupportInstall,
  TSupportWidgetSettings,
  TSupportWidgetSettingsRequest,
} from '@stn/contracts/support';
import { eq } from 'drizzle-orm';
import { AppError, forbidden } from '../../platform/http/errors.ts';
import { auditActorId, auditClient, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { mainAgencyId } from '../agencies/service.ts';
import { audit } from '../audit/service.ts';
import { type SupportInstallRow, supportInstallChoices, supportInstalls } from '../installs/service.ts';
import { supportWidgetSettings } from './tables.ts';

type Ids = TSupportWidgetSettingsRequest;
const FIELDS = ['support_widget_agency_install_id', 'support_widget_business_install_id'] as const;

/** Only the platform (an Admin's request) reads or picks the support chat's installs. */
function onPlatform(ctx: Ctx) {
  if (ctx.tenant.level !== 'platform') throw forbidden();
}

async function storedIds(ctx: Ctx): Promise<Ids> {
  const [row] = await ctx.db.select().from(supportWidgetSettings).where(eq(supportWidgetSettings.id, 1));
  return {
    support_widget_agency_install_id: row?.support_widget_agency_install_id ?? null,
    support_widget_business_install_id: row?.support_widget_business_install_id ?? null,
  };
}

const pick = ({
  key: _k,
  agency_id: _a,
  business_live: _l,
  ...install
}: SupportInstallRow): TSupportInstall => install;

async function present(ctx: Ctx, ids: Ids): Promise<TSupportWidgetSettings> {
  const rows = await supportInstalls(ctx, {
    ids: FIELDS.flatMap((f) => (ids[f] === null ? [] : [ids[f]])),
  });
  const byId = (id: number | null) => {
    const row = rows.find((r) => r.id === id);
    return row ? pick(row) : null;
  };
  return {
    ...ids,
    agency_install: byId(ids.support_widget_agency_install_id),
    business_install: byId(ids.support_widget_business_install_id),
  };
}

/** The two picks, with the installs they name. */
export async function getSupportWidgetSettings(ctx: Ctx): Promise<TSupportWidgetSettings> {
  onPlatform(ctx);
  return present(ctx, await storedIds(ctx));
}

/** The installs the admin may pick: active installs of live businesses under the main agency. */
export async function listSupportInstallChoices(ctx: Ctx, q: TListQuery) {
  onPlatform(ctx);
  const agencyId = await mainAgencyId(ctx);
  if (agencyId === null) return { data: [], meta: { total: 0, page: q.page, perPage: q.perPage } };
  return supportInstallChoices(ctx, { ...q, agencyId });
}

/**
 * Sets both picks (null: none). Each must be an install of a business under the main agency, in the
 * active list, of a business that is neither switched off, archived nor deleted; otherwise a 422 on its
 * field and nothing changes.
 */
export async function setSupportWidgetSettings(
  ctx: Ctx,
  input: TSupportWidgetSettingsRequest,
): Promise<TSupportWidgetSettings> {
  onPlatform(ctx);
  const mainId = await mainAgencyId(ctx);
  const ids = FIELDS.flatMap((f) => (input[f] === null ? [] : [input[f]]));
  const rows = await supportInstalls(ctx, { ids });
  const errors: Record<string, string> = {};
  for (const field of FIELDS) {
    const id = input[field];
    if (id === null) continue;
    const row = rows.find((r) => r.id === id);
    if (!row) errors[field] = 'support.install_unknown';
    else if (row.agency_id !== mainId) errors[field] = 'support.install_not_main';
    else if (row.status !== 'active' || !row.business_live) errors[field] = 'support.install_not_active';
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION', undefined, errors);
  await inTransaction(ctx, async (tx) => {
    const before = await storedIds(tx);
    const values = { ...input, updated_by: auditActorId(tx), updated_at: new Date() };
    await tx.db
      .insert(supportWidgetSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: supportWidgetSettings.id, set: values });
    await audit(tx, {
      action: 'support_widget.update',
      actorId: auditActorId(tx),
      data: { before, after: input },
      ...auditClient(tx),
    });
  });
  return present(ctx, input);
}

/**
 * The install key of the support chat for a user (spec 000 §2 Layout): agency users get the agency one,
 * users of a business under the main agency the business one, everyone else none. A picked install that
 * no longer answers widget requests (archived, deleted, switched off, or its business is) gives none.
 */
export async function supportWidgetKey(
  ctx: Ctx,
  user: { role_group: TRoleGroup; agencyIsMain: boolean },
): Promise<string | null> {
  const field =
    user.role_group === 'Agency'
      ? 'support_widget_agency_install_id'
      : user.role_group === 'Business' && user.agencyIsMain
        ? 'support_widget_business_install_id'
        : null;
  if (!field) return null;
  const id = (await storedIds(ctx))[field];
  if (id === null) return null;
  const [row] = await supportInstalls(ctx, { ids: [id] });
  return row && row.status === 'active' && row.active && row.business_live ? row.key : null;
}
