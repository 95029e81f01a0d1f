import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CARRIER_TERMS_EXEMPT,
  carrierTermViolations,
  key,
  type SourceFile,
  serverPath,
  violations,
  webPath,
} from './architecture-rules.ts';

// The boundaries, enforced. (a) A module imports another module only through its service.ts; another
// module's tables.ts only from its own tables.ts (a foreign key), or for reading from modules/analytics
// (ADR 014). (b) platform/ imports no module (a platform tables.ts may name a module's table for a
// foreign key). (c) A module writes (insert, update, delete) only the tables its own tables.ts declares.
// (d) A web feature imports no other feature, nor app/ or layouts/; lib/ imports no feature.
// (e) Server code fetches URLs only through the outbound guard (platform/outbound, ADR 049): no global
// fetch, no http(s).request/get, no HTTP client package, but for the few files OUTBOUND_EXEMPT names.

const root = path.resolve(import.meta.dirname, '../../..');

function sources(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name))
        out.push({
          path: path.relative(root, full).split(path.sep).join('/'),
          text: fs.readFileSync(full, 'utf8'),
        });
    }
  };
  walk(path.join(root, dir));
  return out;
}

// Why each known violation is still there (the list only shrinks).
const CTX_BUILDER =
  "builds a call's business context from the call's row (a context constructor, like tenantContext)";
const CARRIER =
  'a carrier lookup before the tenant is known: to take platformSystemContext with the carrier source, as the webhooks now have one';
const STARTUP =
  'start-up wiring app.ts calls with the dependencies before any tenant exists (keys, watchers, mailer)';
const PUBLIC =
  'a public lookup before the tenant is known (a host name, an install key, a public page): to take platformSystemContext';
const HOLDER =
  'the session holder port itself: the auth plugin calls it with a handle before any actor exists';

/**
 * Violations that still exist, each with the reason it is still there. A new violation fails the test; so
 * does an entry here that no longer occurs, so that this list only shrinks.
 */
const KNOWN: Record<string, string> = {
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> agencyForHost()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> agencyMessaging()': CARRIER,
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> agencySiteAddress()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> carrierAccountOwner()': CARRIER,
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> sealAgencySecrets()': STARTUP,
  'service-without-tenant: apps/server/src/modules/agencies/service.ts -> twilioAuthTokenBySid()': CARRIER,
  'service-without-tenant: apps/server/src/modules/contacts/import.ts -> resumeStalledImports()': STARTUP,
  'service-without-tenant: apps/server/src/modules/contacts/import.ts -> watchImports()': STARTUP,
  'service-without-tenant: apps/server/src/modules/installs/service.ts -> demoPageInstall()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/installs/service.ts -> installByKey()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/notifications/mailer.ts -> createMailer()': STARTUP,
  'service-without-tenant: apps/server/src/modules/push/service.ts -> ensureVapidKeys()': STARTUP,
  'service-without-tenant: apps/server/src/modules/push/service.ts -> vapidKeys()': STARTUP,
  'service-without-tenant: apps/server/src/modules/sites/pages.ts -> publicPage()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/sites/release-notes.ts -> publishedReleaseNotes()': PUBLIC,
  'service-without-tenant: apps/server/src/modules/telephony/engine.ts -> callContext()': CTX_BUILDER,
  'service-without-tenant: apps/server/src/modules/users/service.ts -> sessionHolder()': HOLDER,
};

describe('architecture', () => {
  const found = [
    ...new Set(violations([...sources('apps/server/src'), ...sources('apps/web/src')]).map(key)),
  ];

  it('has no violation beyond the known ones', () => {
    expect(found.filter((v) => !(v in KNOWN))).toEqual([]);
  });

  it('lists no known violation that is gone', () => {
    expect(Object.keys(KNOWN).filter((v) => !found.includes(v))).toEqual([]);
  });
});

describe("the carrier's words stay in its adapter (ADR 056)", () => {
  const files = sources('apps/server/src');

  it('no server file outside platform/carrier names Twilio fields, TwiML or Twilio error codes', () => {
    expect(carrierTermViolations(files).map((v) => `${v.file} -> ${v.target}`)).toEqual([]);
  });

  it('lists no exception that is gone', () => {
    const paths = new Set(files.map((f) => f.path));
    expect(Object.keys(CARRIER_TERMS_EXEMPT).filter((p) => !paths.has(p))).toEqual([]);
  });

  it("(f) reports Twilio's fields, TwiML and error codes outside the adapter, not in comments or tests", () => {
    const file = (p: string, text: string): SourceFile => ({ path: p, text });
    const hook = serverPath('modules/chats/webhooks.ts');
    const v = carrierTermViolations([
      file(
        hook,
        [
          "const from = str(body, 'From'); const sid = str(body, 'MessageSid');",
          "const url = body['MediaUrl' + i];",
          'if (request.body.AnsweredBy) return;',
          'return reply.send(\'<?xml version="1.0"?><Response><Hangup/></Response>\');',
          "const verb = el('Gather', { numDigits: 1 });",
          'return twiml(say(text));',
          'if (err.code === 21610) optOut();',
          // Not the carrier's words: comments, our own types and generics, other numbers.
          '// the carrier sends CallSid and <Dial> answers, 21610 opts out',
          'const settings: Record<string, unknown> = {}; type ErrorCode = string;',
          'const max = 2147483647; const timeout = 30_000; let r: Promise<Response>;',
        ].join('\n'),
      ),
      file(serverPath('platform/carrier/twilio-webhooks.ts'), "const sid = str(b, 'CallSid');"),
      file(serverPath('modules/chats/messages.test.ts'), "const body = { MessageSid: 'SM1', From: '+1' };"),
    ]);
    expect(v.map((x) => `${x.file} -> ${x.target}`)).toEqual([
      `${hook} -> field MessageSid`,
      `${hook} -> field MediaUrl`,
      `${hook} -> field AnsweredBy`,
      `${hook} -> TwiML <Response>`,
      `${hook} -> TwiML el('Gather`,
      `${hook} -> TwiML twiml(`,
      `${hook} -> error code 21610`,
    ]);
  });
});

describe('architecture rules (self-check on fake files)', () => {
  const file = (p: string, text: string): SourceFile => ({ path: p, text });
  const tables = [
    file(serverPath('modules/users/tables.ts'), "export const users = pgTable('users', {});"),
    file(
      serverPath('modules/agencies/tables.ts'),
      "import { users } from '../users/tables.ts';\nexport const agencies = pgTable('agencies', {});",
    ),
    file(
      serverPath('modules/telephony/tables.ts'),
      "import { agencies } from '../agencies/tables.ts';\nexport const numbers = pgTable(\n  'numbers', {});",
    ),
    file(serverPath('modules/installs/tables.ts'), "export const installs = pgTable('installs', {});"),
    file(
      serverPath('platform/auth/tables.ts'),
      "import { users } from '../../modules/users/tables.ts';\nexport const authTokens = pgTable('auth_tokens', {});",
    ),
  ];
  const check = (...files: SourceFile[]) => violations([...tables, ...files]).map(key);

  it('accepts what the rules allow', () => {
    expect(
      check(
        file(
          serverPath('modules/agencies/service.ts'),
          [
            "import { createUser } from '../users/service.ts';",
            "import { agencies } from './tables.ts';",
            "import { scope } from '../../platform/tenancy/context.ts';",
            'await tx.update(agencies).set({});',
          ].join('\n'),
        ),
        file(
          serverPath('modules/analytics/service.ts'),
          "import { users } from '../users/tables.ts';\nawait db.select().from(users);",
        ),
        file(serverPath('modules/users/users.test.ts'), "import { x } from '../agencies/queries.ts';"),
        // Down the ranks; raw SQL on its own tables and the platform's; (ctx, input); HTTP wiring.
        file(
          serverPath('modules/installs/service.ts'),
          [
            "import { audit } from '../audit/service.ts';",
            'const rows = await ctx.db.execute(sql`select id from installs join auth_tokens t on true`);',
            'export async function listInstalls(ctx: Ctx, input: { page: number }) {}',
            'export const countInstalls = async (ctx: Ctx) => 0;',
            'async function helper(db: Db) {}',
          ].join('\n'),
        ),
        file(
          serverPath('modules/installs/routes.ts'),
          'export async function installsRoutes(app: App, deps: Deps) {}',
        ),
        file(webPath('features/users/api/users.ts'), "import { api } from '../../../lib/api-client.ts';"),
        file(webPath('app/routes.tsx'), "import { UsersPage } from '../features/users/users-page.tsx';"),
      ),
    ).toEqual([]);
  });

  it("(a) reports a module importing another module's internals or tables", () => {
    const v = check(
      file(
        serverPath('modules/contacts/service.ts'),
        "import { findAgency } from '../agencies/queries.ts';\nimport { agencies } from '../agencies/tables.ts';",
      ),
    );
    expect(v).toEqual([
      `module-import: ${serverPath('modules/contacts/service.ts')} -> ${serverPath('modules/agencies/queries.ts')}`,
      `module-import: ${serverPath('modules/contacts/service.ts')} -> ${serverPath('modules/agencies/tables.ts')}`,
    ]);
  });

  it('(f) reports a module importing a module of its rank or above, even through its service.ts', () => {
    const v = check(
      file(
        serverPath('modules/users/service.ts'),
        "import { getAgency } from '../agencies/service.ts';\nimport type { TBiz } from '../businesses/service.ts';",
      ),
      file(serverPath('modules/telephony/calls.ts'), "import { x } from '../contacts/service.ts';"),
    );
    expect(v).toEqual([
      `module-rank: ${serverPath('modules/users/service.ts')} -> ${serverPath('modules/agencies/service.ts')}`,
      `module-rank: ${serverPath('modules/users/service.ts')} -> ${serverPath('modules/businesses/service.ts')}`,
      `module-rank: ${serverPath('modules/telephony/calls.ts')} -> ${serverPath('modules/contacts/service.ts')}`,
    ]);
  });

  it("(g) counts raw SQL naming another module's table as an import of that module", () => {
    const v = check(
      file(
        serverPath('modules/installs/queries.ts'),
        'const r = await db.execute(sql`select n.id from installs i\n  left join "numbers" n on n.install_id = i.id`);',
      ),
      file(
        serverPath('modules/telephony/calls.ts'),
        "await ctx.db.execute('SELECT 1 FROM installs WHERE id = $1');",
      ),
    );
    expect(v).toEqual([
      `module-rank: ${serverPath('modules/installs/queries.ts')} -> sql numbers (telephony)`,
      `module-import: ${serverPath('modules/telephony/calls.ts')} -> sql installs (installs)`,
    ]);
  });

  it('(h) reports an exported service function that takes a database handle or an Actor, not (ctx, input)', () => {
    const f = serverPath('modules/installs/queries.ts');
    const v = check(
      file(
        f,
        [
          'export async function byDb(db: Db, id: number) {}',
          'export function byTx(tx: Tx) {}',
          'export async function byDeps(deps: Deps, id: number) {}',
          "export async function byPick(ctx: Pick<Ctx, 'db' | 'deps'>, input: { id: number }) {}",
          'export const byObject = async ({ db }: { db: Tx; deps: Deps }, id: number) => 1;',
          'export async function byActor<T>(actor: Actor, input: T) {}',
        ].join('\n'),
      ),
    );
    expect(v).toEqual(
      ['byDb', 'byTx', 'byDeps', 'byPick', 'byObject', 'byActor'].map(
        (name) => `service-without-tenant: ${f} -> ${name}()`,
      ),
    );
  });

  it('(b) reports the platform importing a module', () => {
    const v = check(
      file(serverPath('platform/mail.ts'), "import type { x } from '../modules/notifications/service.ts';"),
    );
    expect(v).toEqual([
      `platform-import: ${serverPath('platform/mail.ts')} -> ${serverPath('modules/notifications/service.ts')}`,
    ]);
  });

  it('(c) reports a module writing a table it does not own, however the table is named', () => {
    const v = check(
      file(
        serverPath('modules/analytics/service.ts'),
        "import { users as u } from '../users/tables.ts';\nawait db.delete(u).where(x);",
      ),
      file(serverPath('modules/agencies/service.ts'), 'await tx.insert(users).values({});'),
    );
    expect(v).toEqual([
      `foreign-write: ${serverPath('modules/analytics/service.ts')} -> users (users)`,
      `foreign-write: ${serverPath('modules/agencies/service.ts')} -> users (users)`,
    ]);
  });

  it('(e) reports a fetch that does not go through the outbound guard', () => {
    const v = check(
      file(
        serverPath('modules/chats/media.ts'),
        [
          'const res = await fetch(item.url);',
          'const r2 = await globalThis.fetch(u);',
          'http.request(opts); https.get(u);',
          "import { request } from 'undici';",
          // Not the global fetch: a method of that name, called or defined.
          'await this.client.calls(sid).fetch();',
          'private async fetch(call) {}',
        ].join('\n'),
      ),
      file(serverPath('platform/outbound/guard.ts'), 'http.request(opts);'),
    );
    const f = serverPath('modules/chats/media.ts');
    expect(v).toEqual([
      `outbound-fetch: ${f} -> fetch()`,
      `outbound-fetch: ${f} -> globalThis.fetch()`,
      `outbound-fetch: ${f} -> http.request()`,
      `outbound-fetch: ${f} -> https.get()`,
      `outbound-fetch: ${f} -> undici`,
    ]);
  });

  it('(d) reports a feature importing another feature or the app shell, and lib importing a feature', () => {
    const v = check(
      file(
        webPath('features/users/user-form.tsx'),
        [
          "import { AgencyPicker } from '../agencies/agency-picker.tsx';",
          "import { menus } from '../../app/menus.ts';",
          "import { Shell } from '../../layouts/shell.tsx';",
        ].join('\n'),
      ),
      file(webPath('lib/guards.ts'), "import { x } from '../features/users/rules.ts';"),
    );
    expect(v).toEqual([
      `web-boundary: ${webPath('features/users/user-form.tsx')} -> ${webPath('features/agencies/agency-picker.tsx')}`,
      `web-boundary: ${webPath('features/users/user-form.tsx')} -> ${webPath('app/menus.ts')}`,
      `web-boundary: ${webPath('features/users/user-form.tsx')} -> ${webPath('layouts/shell.tsx')}`,
      `web-boundary: ${webPath('lib/guards.ts')} -> ${webPath('features/users/rules.ts')}`,
    ]);
  });
});
