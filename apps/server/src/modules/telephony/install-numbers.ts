// The numbers of installs, as the installs module shows them (ADR 054: installs asks through a port).
import { sql } from 'drizzle-orm';
import type { InstallNumber } from '../../platform/ports.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

/**
 * The carrier number assigned to each install (a purchased or landline number with install_id set and not
 * released): the installs module's screens show it, through the numbers port (installs sits below
 * telephony, ADR 054). A purchased number wins over a landline, then the newest.
 */
export async function installNumbers(
  ctx: Ctx,
  input: { installIds: number[] },
): Promise<Map<number, InstallNumber>> {
  const { installIds } = input;
  const out = new Map<number, InstallNumber>();
  if (installIds.length === 0) return out;
  const result = await ctx.db.execute<{
    install_id: number;
    phone_number: string;
    voice: boolean | null;
    sms: boolean | null;
  }>(sql`
    select distinct on (install_id) install_id, phone_number,
      coalesce((capabilities->>'voice')::boolean, true) as voice,
      coalesce((capabilities->>'sms')::boolean, true) and sms_enabled as sms
    from numbers
    where install_id in ${sql`(${sql.join(
      installIds.map((id) => sql`${id}`),
      sql`, `,
    )})`}
      and released_at is null and kind <> 'caller_id'
    order by install_id, (kind = 'purchased') desc, id desc`);
  for (const r of result.rows)
    out.set(Number(r.install_id), {
      phone_number: r.phone_number,
      voice: Boolean(r.voice),
      sms: Boolean(r.sms),
    });
  return out;
}
