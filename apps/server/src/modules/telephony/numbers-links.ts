// What the numbers service needs from its neighbours, in one place: the installs service (an install of
// the business, the names for lists, the install's landline settings) and the agency a carrier account
// belongs to. Each is the owning module's function.
import type { Ctx } from '../../platform/tenancy/context.ts';
import { carrierAccountOwner } from '../agencies/service.ts';
import { installForCalls, installsOfBusiness, updateInstall } from '../installs/service.ts';

/** Whose carrier account this is: an agency's (businessId null) or one business's own (ADR 093). */
export const ownerOfAccount = carrierAccountOwner;

/** An install of the context's business that is not deleted, or null (a 404 for the caller). */
export async function installOf(ctx: Ctx, installId: number): Promise<{ id: number; name: string } | null> {
  const install = await installForCalls(ctx, installId);
  return install && install.status !== 'deleted' ? { id: install.id, name: install.name } : null;
}

/** Names of the business's installs by id. */
export async function installNames(ctx: Ctx): Promise<Map<number, string>> {
  return new Map((await installsOfBusiness(ctx)).map((i) => [i.id, i.name]));
}

/** The install's texting landline (settings landline_number / landline_enabled), through the installs service. */
export async function setInstallLandline(
  ctx: Ctx,
  installId: number,
  landline: { landline_number: string | null; landline_enabled: boolean },
): Promise<void> {
  await updateInstall(ctx, { id: installId, settings: landline });
}
