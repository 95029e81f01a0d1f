import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.ts';
import { createTestApp, login, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(root, 'apps/server/src/cli.ts');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
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
