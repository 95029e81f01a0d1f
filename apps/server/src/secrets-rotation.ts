// Re-sealing every sealed value under the current secrets key (ADR 100): `npm run cli -- secrets:rotate`.
// Platform-level work over several modules' tables, so it lives beside the CLI rather than in a module, and
// runs on the platform's database handle (deps.db), never in a tenant's context.
import { sql } from 'drizzle-orm';
import type { Db } from './platform/db/client.ts';
import { type Secrets, SecretsKeyError } from './platform/secrets.ts';

/**
 * Every place a sealed value is stored: a text column, or one key of a jsonb column. A new sealed column
 * is added here (ADR 100), else a rotation leaves it under the old key and it stops opening once
 * SECRETS_KEY_PREVIOUS is removed.
 */
export const SEALED_FIELDS: readonly { table: string; pk: string; column: string; jsonKey?: string }[] = [
  { table: 'agencies', pk: 'id', column: 'twilio_config', jsonKey: 'authToken' },
  { table: 'agencies', pk: 'id', column: 'stripe_config', jsonKey: 'secretKey' },
  { table: 'businesses', pk: 'id', column: 'twilio_config', jsonKey: 'authToken' },
  { table: 'email_accounts', pk: 'id', column: 'password' },
  { table: 'user_integrations', pk: 'id', column: 'secret' },
  { table: 'google_integrations', pk: 'id', column: 'refresh_token' },
  { table: 'google_integrations', pk: 'id', column: 'access_token' },
  { table: 'push_vapid_keys', pk: 'id', column: 'private_key' },
  { table: 'stripe_webhooks', pk: 'stripe_account', column: 'secret' },
];

export type RotationCount = { field: string; sealed: number; resealed: number };

/** A sealed value that no key opens, with where it is. */
export class RotationError extends Error {}

const fieldName = (f: (typeof SEALED_FIELDS)[number]) =>
  `${f.table}.${f.column}${f.jsonKey ? `.${f.jsonKey}` : ''}`;

/**
 * Re-seals, under the current key, every value sealed under a previous one. In batches of `batchSize` rows
 * (keyset on the primary key), each batch one transaction that locks its rows (FOR UPDATE), so that a
 * value written meanwhile by a running server is neither lost nor overwritten with an older one. Values
 * already under the current key are left as they are: running it again changes nothing.
 */
export async function rotateSecrets(
  db: Db,
  secrets: Pick<Secrets, 'reseal'>,
  opts: { batchSize?: number } = {},
): Promise<RotationCount[]> {
  const batchSize = opts.batchSize ?? 500;
  const counts: RotationCount[] = [];
  for (const f of SEALED_FIELDS) {
    const table = sql.identifier(f.table);
    const pk = sql.identifier(f.pk);
    const column = sql.identifier(f.column);
    const value = f.jsonKey ? sql`${column}->>${f.jsonKey}` : sql`${column}`;
    const count: RotationCount = { field: fieldName(f), sealed: 0, resealed: 0 };
    let after: string | number | null = null;
    for (;;) {
      const done: boolean = await db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ pk: string | number; value: string }>(
          sql`select ${pk} as pk, ${value} as value from ${table}
              where ${value} like 'enc:v1:%' ${after === null ? sql`` : sql`and ${pk} > ${after}`}
              order by ${pk} limit ${batchSize} for update`,
        );
        for (const row of rows) {
          let fresh: string | null;
          try {
            fresh = secrets.reseal(row.value);
          } catch (err) {
            if (err instanceof SecretsKeyError)
              throw new RotationError(`${fieldName(f)} of ${f.pk} ${row.pk}: ${err.message}`);
            throw err;
          }
          count.sealed++;
          if (fresh === null) continue;
          await tx.execute(
            f.jsonKey
              ? sql`update ${table} set ${column} = jsonb_set(${column}, ${`{${f.jsonKey}}`}::text[], to_jsonb(${fresh}::text))
                    where ${pk} = ${row.pk}`
              : sql`update ${table} set ${column} = ${fresh} where ${pk} = ${row.pk}`,
          );
          count.resealed++;
        }
        after = rows.at(-1)?.pk ?? after;
        return rows.length < batchSize;
      });
      if (done) break;
    }
    counts.push(count);
  }
  return counts;
}
