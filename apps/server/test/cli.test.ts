import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { createSecrets } from '../src/platform/secrets.ts';
import { twilioSignature } from '../src/platform/webhooks/tree.ts';
import { serverEntry } from './child-server.ts';
import { createTestApp, login, seedTenants, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, [...serverEntry('cli'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('cli user:create against DATABASE_URL', () => {
  let t: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    env = { DATABASE_URL: t.config.databaseUrl ?? '', DATA_DIR: os.tmpdir() };
  });
  afterAll(() => t.close());

  it('creates the first SuperAdmin, prints its id, and the account signs in', async () => {
    const r = await cli(
      ['user:create', '--email', 'First@Admin.test', '--password', 'a-long-password', '--role', 'SuperAdmin'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const id = Number(r.stdout.trim());
    const row = (await t.pool.query('select email, role, role_group from users where id = $1', [id])).rows[0];
    expect(row).toEqual({ email: 'first@admin.test', role: 'SuperAdmin', role_group: 'Admin' });
    const token = await login(t.app, 'first@admin.test', 'a-long-password');
    expect(token).toMatch(/^[\w-]{40,}$/);
  });

  it.each([
    [
      ['user:create', '--email', 'x@y.test', '--password', 'a-long-password', '--role', 'Emperor'],
      /--role must be one of/,
    ],
    [
      ['user:create', '--email', 'not-an-email', '--password', 'a-long-password', '--role', 'Admin'],
      /valid email/,
    ],
    [
      ['user:create', '--email', 'x@y.test', '--password', 'short', '--role', 'Admin'],
      /at least 8 characters/,
    ],
    [
      ['user:create', '--email', 'x@y.test', '--password', 'a-long-password', '--role', 'AgencyAdmin'],
      /agency field is required/,
    ],
    [
      [
        'user:create',
        '--email',
        'x@y.test',
        '--password',
        'a-long-password',
        '--role',
        'BusinessUser',
        '--business',
        '999',
      ],
      /business is invalid/,
    ],
    [
      ['user:create', '--email', 'first@admin.test', '--password', 'a-long-password', '--role', 'Admin'],
      /already been taken/,
    ],
    [['user:create', '--email', 'x@y.test', '--role', 'Admin'], /--password is required/],
    [['user:create', '--nope'], /Unknown option/],
    [['frobnicate'], /unknown command/],
  ])('rejects %j with exit code 2 and a clear message, creating nothing', async (args, message) => {
    const before = (await t.pool.query('select count(*)::int as n from users')).rows[0].n;
    const r = await cli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await t.pool.query('select count(*)::int as n from users')).rows[0].n).toBe(before);
  });
});

describe('cli user:create with the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-cli-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts the embedded database for the command when no server runs, then uses the running one', async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const first = await cli(
      ['user:create', '--email', 'one@x.test', '--password', 'a-long-password', '--role', 'Admin'],
      env,
    );
    expect(first.code, first.stderr).toBe(0);
    // Nothing is left running after the command.
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    // Now a "server" holds the embedded database: the CLI must use it rather than start another.
    const running = await startEmbeddedPostgres({ dataDir, databases: ['app'] });
    try {
      const second = await cli(
        ['user:create', '--email', 'two@x.test', '--password', 'a-long-password', '--role', 'Admin'],
        env,
      );
      expect(second.code, second.stderr).toBe(0);
      const client = new pg.Client({ connectionString: running.url('app') });
      await client.connect();
      const emails = (await client.query('select email from users order by id')).rows.map((r) => r.email);
      await client.end();
      expect(emails).toEqual(['one@x.test', 'two@x.test']);
      expect(Number(second.stdout.trim())).toBeGreaterThan(Number(first.stdout.trim()));
    } finally {
      await running.stop();
    }
  });
});

describe('cli zapier:client', () => {
  // A key of this test's own: the CLI and the server must derive the same client secret from it.
  const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SECRETS_KEY });
  });
  afterAll(() => t.close());

  const token = (client_secret: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', code: 'no-such-code', client_id: 'zapier', client_secret },
    });

  it('prints the client id, the derived secret the token endpoint accepts, and the URLs', async () => {
    const r = await cli(['zapier:client'], { SECRETS_KEY, DATA_DIR: os.tmpdir(), ZAPIER_CLIENT_SECRET: '' });
    expect(r.code, r.stderr).toBe(0);
    const out = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
    );
    expect(out.client_id).toBe('zapier');
    expect(out.authorization_url).toMatch(/\/auth\/login$/);
    expect(out.token_url).toMatch(/\/oauth\/token$/);
    // The printed secret authenticates the client: the answer is about the code, not the client.
    const accepted = await token(out.client_secret ?? '');
    expect(accepted.json().error, accepted.body).toBe('invalid_grant');
    const refused = await token(`${out.client_secret}x`);
    expect(refused.json().error).toBe('invalid_client');
  });

  it('prints ZAPIER_CLIENT_SECRET when it is set', async () => {
    const r = await cli(['zapier:client'], {
      SECRETS_KEY,
      DATA_DIR: os.tmpdir(),
      ZAPIER_CLIENT_SECRET: 'a-configured-secret-1234',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('client_secret: a-configured-secret-1234\n');
  });
});

describe('cli secrets:rotate (ADR 100)', () => {
  const KEY_A = Buffer.alloc(32, 1).toString('base64');
  const KEY_B = Buffer.alloc(32, 2).toString('base64');
  const KEY_C = Buffer.alloc(32, 3).toString('base64');
  const SID = 'AC00000000000000000000000000000a27';
  const TOKEN = 'auth-token-sealed-under-key-a';
  let t: TestApp;
  let agencyId: number;
  beforeAll(async () => {
    // Everything sealed under A: the push key (made at start) and the agency's carrier token and Stripe key.
    t = await createTestApp({ SECRETS_KEY: KEY_A });
    const seed = await seedTenants(t.db);
    agencyId = seed.a.agency.id;
    const a = createSecrets(Buffer.from(KEY_A, 'base64'));
    await t.pool.query('update agencies set twilio_config = $2, stripe_config = $3 where id = $1', [
      agencyId,
      { accountSid: SID, authToken: a.seal(TOKEN) },
      { publicKey: 'pk_test_a27', secretKey: a.seal('sk_test_a27') },
    ]);
  });
  afterAll(() => t.close());

  const envOf = (keys: { SECRETS_KEY: string; SECRETS_KEY_PREVIOUS?: string }) => ({
    DATABASE_URL: t.config.databaseUrl ?? '',
    DATA_DIR: os.tmpdir(),
    SECRETS_KEY_PREVIOUS: '',
    ...keys,
  });

  /**
   * A server started with these keys; the carrier's webhook signed with the agency's token: its status, and
   * what the server logged at warn and above.
   */
  async function webhookWith(keys: { SECRETS_KEY: string; SECRETS_KEY_PREVIOUS?: string }) {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...envOf(keys) });
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const app = await buildApp({ config, db: t.db, logger });
    try {
      await app.ready();
      const path = '/webhooks/twilio/sms-in';
      const body = {
        AccountSid: SID,
        MessageSid: `SM${'0'.repeat(32)}`,
        From: '+14155550100',
        To: '+14155550199',
      };
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: {
          host: 'localhost:3000',
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(TOKEN, `http://localhost:3000${path}`, {
            ...body,
            Body: 'hi',
          }),
        },
        payload: new URLSearchParams({ ...body, Body: 'hi' }).toString(),
      });
      return { status: res.statusCode, log: lines.join('') };
    } finally {
      await app.close().catch(() => undefined);
    }
  }

  const sealedValues = async () => {
    const agency = (
      await t.pool.query('select twilio_config, stripe_config from agencies where id = $1', [agencyId])
    ).rows[0];
    const push = (await t.pool.query('select private_key from push_vapid_keys order by id')).rows;
    return [
      agency.twilio_config.authToken,
      agency.stripe_config.secretKey,
      ...push.map((r) => r.private_key),
    ];
  };

  it('a value sealed under A opens on a server with SECRETS_KEY=B and SECRETS_KEY_PREVIOUS=A', async () => {
    const r = await webhookWith({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: `${KEY_C},${KEY_A}` });
    expect(r.status, r.log).toBe(200);
    expect(r.log).not.toContain('secrets:');
    // Only opened: the values are still those sealed under A.
    const a = createSecrets(Buffer.from(KEY_A, 'base64'));
    expect((await sealedValues()).map((v) => a.open(v))).toContain(TOKEN);
  });

  it('without A anywhere, the carrier is refused with the reason logged, and the command changes nothing, saying why', async () => {
    // The push key and the carrier token do not open: the server says so (it starts, without them).
    const server = await webhookWith({ SECRETS_KEY: KEY_B });
    expect(server.status).toBe(403);
    expect(server.log).toMatch(/does not open with the secrets key \(SECRETS_KEY\).*SECRETS_KEY_PREVIOUS/);
    expect(server.log).toContain('push: the VAPID keys cannot be opened');
    const before = await sealedValues();
    const r = await cli(['secrets:rotate'], envOf({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_C }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error: \S+ of \S+ \S+: secrets: a sealed value opens neither with SECRETS_KEY nor/,
    );
    expect(await sealedValues()).toEqual(before);
  });

  it('re-seals every value under B, once (a second run finds nothing), after which B alone opens them', async () => {
    const before = await sealedValues();
    const first = await cli(
      ['secrets:rotate', '--batch-size', '1'],
      envOf({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A }),
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('agencies.twilio_config.authToken: 1 sealed, 1 re-sealed\n');
    expect(first.stdout).toContain('agencies.stripe_config.secretKey: 1 sealed, 1 re-sealed\n');
    expect(first.stdout).toMatch(/push_vapid_keys\.private_key: (\d+) sealed, \1 re-sealed\n/);
    expect(first.stdout).toContain(`re-sealed ${before.length} value(s) under SECRETS_KEY\n`);

    const after = await sealedValues();
    const b = createSecrets(Buffer.from(KEY_B, 'base64'));
    const a = createSecrets(Buffer.from(KEY_A, 'base64'));
    expect(after.map((v) => b.open(v))).toEqual(before.map((v) => a.open(v)));
    expect(b.open(after[0])).toBe(TOKEN);

    const again = await cli(['secrets:rotate'], envOf({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A }));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('re-sealed 0 value(s) under SECRETS_KEY\n');
    expect(await sealedValues()).toEqual(after);

    const onB = await webhookWith({ SECRETS_KEY: KEY_B });
    expect(onB.status, onB.log).toBe(200);
    expect(onB.log).not.toContain('secrets:');
    // A server still on A alone no longer opens them.
    const onA = await webhookWith({ SECRETS_KEY: KEY_A });
    expect(onA.status).toBe(403);
    expect(onA.log).toMatch(/sealed under another key/);
  });

  it.each([
    [
      { SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: 'not-a-key' },
      /SECRETS_KEY_PREVIOUS must be keys of 32 bytes/,
    ],
    [{ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: `${KEY_A},${KEY_B}` }, /holds SECRETS_KEY itself/],
  ])('refuses a wrong SECRETS_KEY_PREVIOUS with exit code 2', async (keys, message) => {
    const r = await cli(['secrets:rotate'], envOf(keys));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
