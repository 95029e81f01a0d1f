import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, seedTenants, type TestApp } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { createSecrets, isSealed, loadSecretsKey } from './secrets.ts';

describe('sealing', () => {
  const secrets = createSecrets(crypto.randomBytes(32));

  it('seals to a value that holds no plaintext and opens to the original', () => {
    const sealed = secrets.seal('sk_live_abc123');
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain('abc123');
    expect(secrets.seal('sk_live_abc123')).not.toBe(sealed);
    expect(secrets.open(sealed)).toBe('sk_live_abc123');
    expect(isSealed(sealed)).toBe(true);
  });

  it('derives one stable 32-byte key per purpose, none equal to the secrets key or another purpose', () => {
    const key = crypto.randomBytes(32);
    const a = createSecrets(key);
    const b = createSecrets(Buffer.from(key));
    expect(a.derive('widget-visitor-token')).toHaveLength(32);
    expect(a.derive('widget-visitor-token').equals(b.derive('widget-visitor-token'))).toBe(true);
    expect(a.derive('widget-visitor-token').equals(a.derive('other'))).toBe(false);
    expect(a.derive('widget-visitor-token').equals(key)).toBe(false);
    expect(
      createSecrets(crypto.randomBytes(32))
        .derive('widget-visitor-token')
        .equals(a.derive('widget-visitor-token')),
    ).toBe(false);
  });

  it('refuses a tampered value and another key', () => {
    const sealed = secrets.seal('token');
    const parts = sealed.split(':');
    parts[4] = Buffer.from('other').toString('base64url');
    expect(() => secrets.open(parts.join(':'))).toThrow();
    expect(() => createSecrets(crypto.randomBytes(32)).open(sealed)).toThrow();
  });
});

describe('earlier keys (ADR 100)', () => {
  const a = crypto.randomBytes(32);
  const b = crypto.randomBytes(32);

  it('opens values sealed under a previous key, seals under the current one, re-seals only the old ones', () => {
    const underA = createSecrets(a).seal('token');
    const rotating = createSecrets(b, [crypto.randomBytes(32), a]);
    expect(rotating.open(underA)).toBe('token');
    const underB = rotating.reseal(underA);
    expect(underB).toMatch(/^enc:v1:/);
    expect(createSecrets(b).open(underB ?? '')).toBe('token');
    expect(rotating.reseal(underB ?? '')).toBeNull();
    expect(rotating.reseal('plain')).toBeNull();
    expect(() => createSecrets(b).open(underA)).toThrow(/SECRETS_KEY_PREVIOUS/);
    expect(() => createSecrets(b, [crypto.randomBytes(32)]).reseal(underA)).toThrow(
      /sealed under another key/,
    );
  });
});

describe('the key', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-secrets-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is generated once into DATA_DIR/secrets.key, readable by the owner only, and then reused', () => {
    const first = loadSecretsKey({ dataDir: dir });
    expect(first).toHaveLength(32);
    const file = path.join(dir, 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ dataDir: dir }).equals(first)).toBe(true);
  });

  it('comes from SECRETS_KEY when set', () => {
    const key = crypto.randomBytes(32);
    expect(loadSecretsKey({ dataDir: dir, secretsKey: key }).equals(key)).toBe(true);
  });
});

describe('agency secrets at rest', () => {
  let t: TestApp;
  let seed: Awaited<ReturnType<typeof seedTenants>>;
  beforeAll(async () => {
    t = await createTestApp();
    seed = await seedTenants(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seals plaintext values left from before at start, and no route answers them', async () => {
    const sid = 'AC0123456789abcdef0123456789abcdef';
    await t.pool.query(`update agencies set twilio_config = $2, stripe_config = $3 where id = $1`, [
      seed.a.agency.id,
      { accountSid: sid, authToken: 'plain-old-token' },
      { publicKey: 'pk_test_x', secretKey: 'sk_test_plainOLD' },
    ]);
    // A process starting on this database seals them.
    const next = await buildApp({ config: t.config, db: t.db });
    await next.ready();
    await next.close();
    const row = (await t.pool.query('select * from agencies where id = $1', [seed.a.agency.id])).rows[0];
    expect(JSON.stringify(row)).not.toContain('plain-old-token');
    expect(JSON.stringify(row)).not.toContain('sk_test_plainOLD');
    expect(t.app.deps.secrets.open(row.twilio_config.authToken)).toBe('plain-old-token');
    expect(t.app.deps.secrets.open(row.stripe_config.secretKey)).toBe('sk_test_plainOLD');
    expect(row.stripe_config.publicKey).toBe('pk_test_x');

    const admin = await login(t.app, seed.superAdmin.email);
    const agencyAdmin = await login(t.app, seed.a.agencyAdmin.email);
    for (const [token, url] of [
      [admin, `/api/v1/agencies/${seed.a.agency.id}`],
      [admin, '/api/v1/agencies'],
      [agencyAdmin, `/api/v1/agencies/${seed.a.agency.id}/twilio-status`],
      [agencyAdmin, '/api/v1/profile'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      for (const secret of ['plain-old-token', 'sk_test_plainOLD', 'enc:v1:'])
        expect(res.body, url).not.toContain(secret);
    }
  });
});
