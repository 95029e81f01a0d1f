import path from 'node:path';

// The boundaries of ARCHITECTURE.md and CONVENTIONS.md 5 and 8, checked by reading the source as text
// (no dependency): what imports what, and which module writes which table. Pure functions over a list
// of files, so that the test can run them on the repository and on a tiny set of files that break each
// rule (the self-check). Paths are relative to the repository root, with '/' separators.

export type SourceFile = { path: string; text: string };
export type Rule =
  | 'module-import'
  | 'module-rank'
  | 'platform-import'
  | 'foreign-write'
  | 'web-boundary'
  | 'outbound-fetch'
  | 'service-without-tenant';
export type Violation = { rule: Rule; file: string; target: string };

const SERVER = 'apps/server/src/';
const WEB = 'apps/web/src/';
/** The one module that may read (never write) every module's tables: reports and analytics (ADR 014). */
const ANALYTICS = 'analytics';

/** Every module specifier a file imports or re-exports, statically or dynamically. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[1]) out.push(m[1]);
  return out;
}

/** The repository path a relative specifier points at (null for packages). */
export function resolve(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return path.posix.join(WEB, spec.slice(2));
  if (!spec.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
}

/** `modules/<name>` of a server path, or null. */
export function moduleOf(p: string): string | null {
  const m = p.startsWith(`${SERVER}modules/`) ? p.slice(`${SERVER}modules/`.length).split('/')[0] : null;
  return m ?? null;
}

/**
 * The ranks of the modules, lowest first (ADR 054). A module imports only modules of a lower rank; a
 * lower module learns of higher ones through events or a port registered in app.ts. Billing sits low
 * because today it is a catalogue (plans, packages) that businesses and agencies read.
 */
export const RANKS: Record<string, number> = {
  audit: 0,
  notifications: 0,
  sites: 1,
  billing: 1,
  users: 2,
  auth: 3,
  businesses: 4,
  agencies: 5,
  subscriptions: 6,
  compliance: 6,
  installs: 6,
  contacts: 7,
  telephony: 7,
  support: 7,
  templates: 8,
  /** SMS registration (issue 26, ADR 092): carrier profiles, A2P brands and campaigns, toll-free verifications. */
  registration: 8,
  tasks: 8,
  chats: 9,
  broadcasts: 10,
  automations: 10,
  leadforms: 10,
  push: 10,
  analytics: 11,
  /** Staff notifications (ADR 082): telephony's and chats' events to mail, the carrier and push. */
  alerts: 11,
  /** The live view (ADR 083): calls of telephony, installs' and businesses' names, its own presence table. */
  live: 11,
  /** The order pages: sign-ups that compose auth, users, businesses, agencies, sites and billing. */
  orders: 11,
  /** The landing page's free-demo requests: an agency's site (agencies, sites) and its mail. */
  optins: 11,
  integrations: 11,
  widget: 12,
  profile: 12,
};

/** True when `from` may use `to`: a lower rank (an unranked module is a violation, so it gets a rank). */
const below = (to: string, from: string) => (RANKS[to] ?? Infinity) < (RANKS[from] ?? -Infinity);

const isPlatform = (p: string) => p.startsWith(`${SERVER}platform/`);
const isTables = (p: string) => /\/tables\.ts$/.test(p);

/** Which module (or `platform`) owns each table, by the name `declared` finds in each tables.ts. */
function ownersBy(files: SourceFile[], declared: RegExp): Map<string, string> {
  const owners = new Map<string, string>();
  for (const f of files) {
    if (!isTables(f.path)) continue;
    const owner = moduleOf(f.path) ?? (isPlatform(f.path) ? 'platform' : null);
    if (!owner) continue;
    for (const m of f.text.matchAll(declared)) if (m[1]) owners.set(m[1], owner);
  }
  return owners;
}

/** Owners by the variable a tables.ts exports: `export const users = pgTable(` → users. */
export const tableOwners = (files: SourceFile[]) =>
  ownersBy(files, /export\s+const\s+(\w+)\s*=\s*pgTable\(/g);

/** Owners by the SQL name: `pgTable('numbers', ...)` → telephony. */
export const sqlTableOwners = (files: SourceFile[]) => ownersBy(files, /pgTable\(\s*['"](\w+)['"]/g);

/**
 * The tables a file names in raw SQL: after from/join/update/into in a `sql` template (or `sql.raw`) or
 * in a string given to `execute(...)`. Interpolations (`${users}`) are Drizzle objects, seen as imports.
 */
export function rawSqlTables(text: string): string[] {
  const bodies: string[] = [];
  for (const m of text.matchAll(/\bsql(?:\.raw)?(?:<[^>`]*>)?\s*(?:\(\s*)?`((?:[^`\\]|\\.)*)`/g))
    bodies.push(m[1] ?? '');
  for (const m of text.matchAll(/\bexecute\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)) bodies.push(m[2] ?? '');
  const out: string[] = [];
  for (const body of bodies) {
    const plain = body.replace(/\$\{[^}]*\}/g, ' ');
    for (const m of plain.matchAll(/\b(?:from|join|update|into)\s+"?(\w+)"?/gi))
      if (m[1]) out.push(m[1].toLowerCase());
  }
  return out;
}

/** Local names bound to imported tables: `import { users as u } from '../users/tables.ts'` gives u → users. */
function tableBindings(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of text.matchAll(/import\s+\{([^}]*)\}\s*from\s*['"][^'"]*tables\.ts['"]/g)) {
    for (const part of (m[1] ?? '').split(',')) {
      const [orig, alias] = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .map((s) => s.trim());
      if (orig) names.set(alias || orig, orig);
    }
  }
  return names;
}

function serverViolations(
  f: SourceFile,
  owners: Map<string, string>,
  sqlOwners: Map<string, string>,
): Violation[] {
  const out: Violation[] = [];
  const mod = moduleOf(f.path);
  for (const spec of importsOf(f.text)) {
    const target = resolve(f.path, spec);
    if (!target) continue;
    const targetModule = moduleOf(target);
    if (!targetModule) continue;
    // (b) The platform depends on no module; only a platform table's foreign key names a module's table.
    if (isPlatform(f.path)) {
      if (!(isTables(f.path) && isTables(target)))
        out.push({ rule: 'platform-import', file: f.path, target });
      continue;
    }
    // (a) Another module is reached through its service.ts; its tables.ts only from a tables.ts (a foreign
    // key) or, for reading, from the analytics module.
    if (!mod || targetModule === mod) continue;
    // (f) Only down the ranks, whatever the file (a tables.ts may still name any table for a foreign key).
    if (!below(targetModule, mod) && !(isTables(f.path) && isTables(target))) {
      out.push({ rule: 'module-rank', file: f.path, target });
      continue;
    }
    const allowed =
      target === `${SERVER}modules/${targetModule}/service.ts` ||
      (isTables(target) && (isTables(f.path) || mod === ANALYTICS));
    if (!allowed) out.push({ rule: 'module-import', file: f.path, target });
  }
  // (g) Raw SQL naming another module's table is an import of that module: upward, a rank violation; downward,
  // a read past the owner's service.ts. Platform tables (sessions, tokens) are the platform's, open to all.
  if (mod && !isTables(f.path) && mod !== ANALYTICS) {
    for (const table of new Set(rawSqlTables(f.text))) {
      const owner = sqlOwners.get(table);
      if (!owner || owner === mod || owner === 'platform') continue;
      const rule = below(owner, mod) ? 'module-import' : 'module-rank';
      out.push({ rule, file: f.path, target: `sql ${table} (${owner})` });
    }
  }
  // (c) A module writes only its own tables (analytics included: it only reads).
  if (mod) {
    const bound = tableBindings(f.text);
    for (const m of f.text.matchAll(/\.(insert|update|delete)\(\s*(\w+)\s*\)/g)) {
      const table = bound.get(m[2] ?? '') ?? m[2] ?? '';
      const owner = owners.get(table);
      if (owner && owner !== mod)
        out.push({ rule: 'foreign-write', file: f.path, target: `${table} (${owner})` });
    }
  }
  return out;
}

/** Files exempt from (h): HTTP wiring and test helpers take what the request gives, not a tenant. */
const NO_TENANT_RULE = /(^|\/)(routes[^/]*\.ts|routes\/.*|tables\.ts|testing\.ts)$/;
/** First-parameter types that carry no tenant: a database handle, the dependencies, a piece of Ctx, an Actor. */
const TENANTLESS = /^(?:Db|Tx|Deps|Actor|Pick<\s*Ctx\b[\s\S]*|\{[\s\S]*\bdb\??\s*:[\s\S]*\})$/;

/** The type written for a function's first parameter, from the text after its opening parenthesis. */
function firstParamType(rest: string): string | null {
  let depth = 0;
  let colon = -1;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '(' || c === '{' || c === '[' || c === '<') depth++;
    else if (c === ')' || c === '}' || c === ']' || (c === '>' && rest[i - 1] !== '=')) {
      if (depth === 0) return colon < 0 ? null : rest.slice(colon + 1, i).trim();
      depth--;
    } else if (depth === 0 && c === ':' && colon < 0) colon = i;
    else if (depth === 0 && (c === ',' || c === '='))
      return colon < 0 ? null : rest.slice(colon + 1, i).trim();
  }
  return null;
}

/**
 * (h) A module's exported function takes `(ctx, input)` with the tenant in ctx: its first parameter is not
 * a database handle, the dependencies, a `Pick<Ctx, ...>`, an object with a `db`, or an Actor.
 */
function tenantViolations(f: SourceFile): Violation[] {
  const mod = moduleOf(f.path);
  if (!mod || NO_TENANT_RULE.test(f.path)) return [];
  const out: Violation[] = [];
  const starts =
    /export\s+(?:async\s+)?function\s*\*?\s*(\w+)\s*(?:<[^(]*>)?\s*\(|export\s+const\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:<[^(]*>)?\s*\(/g;
  for (const m of f.text.matchAll(starts)) {
    const type = firstParamType(
      f.text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 400),
    );
    if (type && TENANTLESS.test(type))
      out.push({ rule: 'service-without-tenant', file: f.path, target: `${m[1] ?? m[2]}()` });
  }
  return out;
}

/** The one place that may open outbound HTTP connections itself (ADR 049). */
const GUARD = `${SERVER}platform/outbound/`;
/**
 * Files that fetch addresses nobody outside chose, each with its reason (the guard would refuse them,
 * rightly, as they may be loopback or private on purpose).
 */
export const OUTBOUND_EXEMPT: Record<string, string> = {
  [`${SERVER}platform/s3.ts`]:
    "the operator's own S3_ENDPOINT from the configuration (a MinIO on 127.0.0.1 is normal), never a URL from outside",
  [`${SERVER}platform/carrier/sandbox/webhook-caller.ts`]:
    'the sandbox calling back the webhook URLs the product itself gave it (in process for our own hosts)',
  [`${SERVER}platform/carrier/remote-sandbox.ts`]:
    "the operator's own CARRIER_SANDBOX_URL (the API server holding the sandbox, on a private address as a rule), never a URL from outside (ADR 063)",
  [`${SERVER}modules/widget/testing.ts`]: "a test helper reading the test server's own event stream",
};
/** HTTP clients other than the guard: a package that fetches, or Node's own. */
const HTTP_CLIENTS = /^(undici|node-fetch|axios|got|superagent|request|needle|ky)$/;

/**
 * (e) Server code fetches a URL only through the outbound guard: no global `fetch(...)`, no
 * `http.request`/`https.get`..., no HTTP client package. A method named fetch (`x.fetch(...)`, `async
 * fetch(...) {`) is not the global one.
 */
function outboundViolations(f: SourceFile): Violation[] {
  if (f.path.startsWith(GUARD) || f.path in OUTBOUND_EXEMPT) return [];
  const out: Violation[] = [];
  for (const m of f.text.matchAll(/(?<![.\w$])fetch\s*\(/g)) {
    const before = f.text.slice(Math.max(0, (m.index ?? 0) - 20), m.index);
    if (/(async|function|private|public|protected|override)\s+$/.test(before)) continue;
    out.push({ rule: 'outbound-fetch', file: f.path, target: 'fetch()' });
  }
  for (const m of f.text.matchAll(/\b(globalThis\.fetch|https?\.(?:request|get))\s*\(/g))
    out.push({ rule: 'outbound-fetch', file: f.path, target: `${m[1]}()` });
  for (const spec of importsOf(f.text))
    if (HTTP_CLIENTS.test(spec)) out.push({ rule: 'outbound-fetch', file: f.path, target: spec });
  return out;
}

/** `features/<name>` of a web path, or null. */
const featureOf = (p: string) =>
  p.startsWith(`${WEB}features/`) ? (p.slice(`${WEB}features/`.length).split('/')[0] ?? null) : null;

function webViolations(f: SourceFile): Violation[] {
  const out: Violation[] = [];
  const feature = featureOf(f.path);
  const inLib = f.path.startsWith(`${WEB}lib/`);
  for (const spec of importsOf(f.text)) {
    const target = resolve(f.path, spec);
    if (!target?.startsWith(WEB)) continue;
    const targetFeature = featureOf(target);
    // (d) A feature imports no other feature and not the app shell; lib/ imports no feature.
    const shell = target.startsWith(`${WEB}app/`) || target.startsWith(`${WEB}layouts/`);
    if (feature && ((targetFeature && targetFeature !== feature) || shell))
      out.push({ rule: 'web-boundary', file: f.path, target });
    if (inLib && targetFeature) out.push({ rule: 'web-boundary', file: f.path, target });
  }
  return out;
}

/** Every violation in a set of files (tests excluded: they may reach into what they test). */
export function violations(files: SourceFile[]): Violation[] {
  const code = files.filter((f) => !/\.test\.tsx?$|\/test-(fixtures|support)\.ts$/.test(f.path));
  const owners = tableOwners(code);
  const sqlOwners = sqlTableOwners(code);
  return code.flatMap((f) =>
    f.path.startsWith(SERVER)
      ? [...serverViolations(f, owners, sqlOwners), ...outboundViolations(f), ...tenantViolations(f)]
      : f.path.startsWith(WEB)
        ? webViolations(f)
        : [],
  );
}

export const key = (v: Violation) => `${v.rule}: ${v.file} -> ${v.target}`;

/** `modules/<m>/` inside the server, for the self-check's fake files. */
export const serverPath = (rest: string) => `${SERVER}${rest}`;
export const webPath = (rest: string) => `${WEB}${rest}`;

/**
 * (f) The carrier's own words stay in its adapter (ADR 056): outside `platform/carrier/` no server file
 * names Twilio's webhook fields (`CallSid`, `MediaUrl0`...), TwiML's verbs (`<Dial>`, `'Gather'`, the
 * `twiml(...)` helpers) or Twilio's error codes (21610, 30003...). Modules speak the carrier's events and
 * instructions in our own types (platform/carrier/webhooks.ts, instructions.ts). Comments do not count.
 */
export type CarrierTermViolation = { rule: 'carrier-terms'; file: string; target: string };

const CARRIER_DIR = `${SERVER}platform/carrier/`;
/** Files allowed to use the carrier's words, each with its reason. */
export const CARRIER_TERMS_EXEMPT: Record<string, string> = {
  [`${SERVER}platform/webhooks/tree.ts`]:
    "the webhook tree's Twilio signature check (X-Twilio-Signature over the form's AccountSid) runs before any handler, as the tree does for every provider",
};
/** A field name as a string or a property (`'CallSid'`, `body.CallSid`, `` `MediaUrl${i}` ``). */
const TWILIO_FIELDS =
  /(?<=['"`.])(AccountSid|CallSid|ParentCallSid|MessageSid|SmsSid|SmsMessageSid|CallStatus|DialCallStatus|DialCallDuration|CallDuration|SequenceNumber|AnsweredBy|Digits|RecordingSid|RecordingUrl|RecordingStatus|RecordingDuration|MessageStatus|SmsStatus|ErrorCode|ErrorMessage|NumMedia|MediaUrl\d*|MediaContentType\d*|VerificationStatus|StatusCallbackEvent)\b/;
/** A TwiML element written in a string (`'<Dial'`, `"><Say>"`), an element helper, the document helper. */
const TWIML_VERBS =
  /(?<=['"`>])<\/?(Response|Say|Play|Gather|Dial|Number|Hangup|Pause|Redirect|Reject|Record|Sms|Message|Enqueue|Conference)\b[^>]*>|\btwiml\s*\(|\bel\(\s*['"][A-Z]\w*/;
/** Twilio's error codes: 2xxxx (REST API) and 3xxxx (message delivery) as five-digit numbers. */
const TWILIO_CODES = /(?<![\w.$'"-])(?:20003|20404|21\d{3}|30\d{3}|63\d{3})(?![\w.])/;

/** The text without its comments (line and block), strings kept. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function carrierTermViolations(files: SourceFile[]): CarrierTermViolation[] {
  const out: CarrierTermViolation[] = [];
  for (const f of files) {
    if (!f.path.startsWith(SERVER) || f.path.startsWith(CARRIER_DIR) || f.path in CARRIER_TERMS_EXEMPT)
      continue;
    if (/\.test\.ts$|\/testing\.ts$|\/test-(fixtures|support)\.ts$/.test(f.path)) continue;
    const lines = withoutComments(f.text).split('\n');
    for (const [kind, pattern] of [
      ['field', TWILIO_FIELDS],
      ['TwiML', TWIML_VERBS],
      ['error code', TWILIO_CODES],
    ] as const)
      for (const line of lines) {
        const m = pattern.exec(line);
        if (m) out.push({ rule: 'carrier-terms', file: f.path, target: `${kind} ${m[0].trim()}` });
      }
  }
  return out;
}
