import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEALED_FIELDS } from '../src/secrets-rotation.ts';
import { createTestApp, type TestApp } from './helpers.ts';

// `secrets:rotate` re-seals the places SEALED_FIELDS lists (ADR 100): a sealed column it does not know
// would stay under the old key. These checks keep the list true to the schema and to the code that seals.

const SRC = path.resolve(import.meta.dirname, '../src');

/** The source files that seal a value, and the fields they write (as SEALED_FIELDS names them). */
const SEALING_FILES: Record<string, string[]> = {
  'modules/agencies/service.ts': [
    'agencies.twilio_config.authToken',
    'agencies.stripe_config.secretKey',
    'businesses.twilio_config.authToken',
  ],
  'modules/integrations/google-service.ts': [
    'google_integrations.refresh_token',
    'google_integrations.access_token',
  ],
  'modules/integrations/mail-service.ts': ['email_accounts.password', 'user_integrations.secret'],
  'modules/push/service.ts': ['push_vapid_keys.private_key'],
  'modules/subscriptions/sellers.ts': ['stripe_webhooks.secret'],
  // A test helper: the agency's carrier token, as the agencies module stores it.
  'modules/telephony/testing.ts': ['agencies.twilio_config.authToken'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const names = SEALED_FIELDS.map((f) => `${f.table}.${f.column}${f.jsonKey ? `.${f.jsonKey}` : ''}`);

describe('the sealed fields secrets:rotate walks', () => {
  it('include every field the code seals: a file that starts sealing is listed here and there', () => {
    const sealing = sourceFiles(SRC)
      .filter((f) => /(secrets\.seal\(|\{\s*(?:open,\s*)?seal\b)/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .filter((f) => f !== 'platform/secrets.ts')
      .sort();
    expect(sealing).toEqual(Object.keys(SEALING_FILES).sort());
    for (const fields of Object.values(SEALING_FILES)) for (const f of fields) expect(names).toContain(f);
  });

  describe('against the migrated schema', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it.each(
      SEALED_FIELDS.map((f) => [f.table, f]),
    )('%s: the column, its type and the key exist', async (_t, f) => {
      const { rows } = await t.pool.query<{ column_name: string; data_type: string }>(
        `select column_name, data_type from information_schema.columns
          where table_schema = 'public' and table_name = $1 and column_name = any($2)`,
        [f.table, [f.pk, f.column]],
      );
      const type = Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
      expect(type[f.column]).toBe(f.jsonKey ? 'jsonb' : 'text');
      expect(type[f.pk]).toBeDefined();
    });
  });
});
