// Command line: `npm run cli -- user:create --email E --password P --role SuperAdmin [--agency ID] [--business ID]`,
// `npm run cli -- zapier:client` (what to enter in Zapier's developer platform),
// `npm run cli -- secrets:rotate [--batch-size N]` (re-seal every secret under SECRETS_KEY, ADR 100).
import { parseArgs } from 'node:util';
import { translate } from '@stn/contracts/i18n';
import {
  AGENT_TYPES,
  ROLES,
  type TAgentType,
  type TRole,
  type TUserType,
  USER_TYPES,
} from '@stn/contracts/roles';
import { zEmail, zPassword } from '@stn/contracts/validation';
import { fieldLabel, parseIssueMessage } from '@stn/contracts/zod';
import { ConfigError, loadConfig } from './platform/config.ts';
import type { Deps } from './platform/deps.ts';
import { AppError } from './platform/http/errors.ts';
import { createSecrets, loadSecretsKey } from './platform/secrets.ts';

// The modules a command runs are loaded once its arguments and settings are known to be good: a mistake in
// them is answered at once, not after loading the server (about two seconds).

const USAGE = `Usage:
  npm run cli -- user:create --email EMAIL --password PASSWORD --role ROLE
                             [--agency AGENCY_ID] [--business BUSINESS_ID]
                             [--user-type 1-4] [--agent-type agent|smsAgent|voiceAgent]
                             [--first-name NAME] [--last-name NAME]

Roles: ${ROLES.join(', ')}.
Agency roles need --agency; business roles need --business (the agency follows from it).
AgencyUser takes --user-type 1 (AccountManager), 2 (FinanaceManager) or 3 (MarketingManager);
BusinessUser takes 1 (AdminSupport), 2 (MarketingUser), 3 (SalesUser) or 4 (custom).
Uses DATABASE_URL, or the embedded database under DATA_DIR (running or not).

  npm run cli -- zapier:client
Prints what to enter in Zapier's developer platform for the platform's Zapier app: the OAuth client id and
secret (ZAPIER_CLIENT_SECRET, or the one derived from the secrets key when it is unset), the redirect
addresses allowed, and the authorization and token URLs. Uses SECRETS_KEY or DATA_DIR/secrets.key.

  npm run cli -- secrets:rotate [--batch-size N]
Re-seals every stored secret (carrier auth tokens, Stripe keys, mail passwords and keys, Google tokens,
the push key, Stripe webhook secrets) under SECRETS_KEY: values sealed under a key listed in
SECRETS_KEY_PREVIOUS are opened and sealed again, N rows (default 500) per transaction. Safe to run again
and while servers run; prints how many values each field holds and how many were re-sealed. See
docs/operations.md, "Rotating SECRETS_KEY".`;

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive whole number, got "${value}"`);
  return n;
}

function parseUserCreate(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      agency: { type: 'string' },
      business: { type: 'string' },
      'user-type': { type: 'string' },
      'agent-type': { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    strict: true,
  });
  if (!values.email) fail('--email is required');
  if (!values.password) fail('--password is required');
  if (!values.role) fail('--role is required');
  const email = zEmail().safeParse(values.email);
  if (!email.success) fail(`--email: ${translate('validation.email', 'en', { name: 'email' })}`);
  const password = zPassword().safeParse(values.password);
  if (!password.success) {
    const { key, params } = parseIssueMessage(password.error.issues[0]?.message ?? 'validation.invalid');
    fail(`--password: ${translate(key, 'en', { name: 'password', ...params })}`);
  }
  if (!(ROLES as readonly string[]).includes(values.role))
    fail(`--role must be one of ${ROLES.join(', ')}; got "${values.role}"`);
  const userType = values['user-type'];
  if (userType !== undefined && !(USER_TYPES as readonly string[]).includes(userType))
    fail('--user-type must be 1, 2, 3 or 4');
  const agentType = values['agent-type'];
  if (agentType !== undefined && !(AGENT_TYPES as readonly string[]).includes(agentType)) {
    fail(`--agent-type must be one of ${AGENT_TYPES.join(', ')}`);
  }
  return {
    email: email.data,
    password: password.data,
    role: values.role as TRole,
    agencyId: positiveInt('agency', values.agency),
    businessId: positiveInt('business', values.business),
    userType: (userType ?? null) as TUserType | null,
    agentType: (agentType ?? null) as TAgentType | null,
    firstName: values['first-name'],
    lastName: values['last-name'],
    emailVerified: true,
  };
}

/** The Zapier app's OAuth settings, as the token endpoint checks them (ADR 089). */
async function zapierClient(): Promise<number> {
  const config = loadConfig();
  const secrets = createSecrets(loadSecretsKey(config));
  const { zapierSecretOf } = await import('./modules/integrations/service.ts');
  const base = config.publicUrl.origin;
  process.stdout.write(
    [
      `client_id: ${config.zapier.clientId}`,
      `client_secret: ${zapierSecretOf(config, secrets)}`,
      `redirect_uris: ${config.zapier.redirectUris.join(', ')}`,
      `authorization_url: ${base}/auth/login`,
      `token_url: ${base}/oauth/token`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** Re-seals every sealed value under the current key (ADR 100): platform-level work on deps.db. */
async function secretsRotate(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'batch-size': { type: 'string' } }, strict: true });
  const batchSize = positiveInt('batch-size', values['batch-size']);
  const config = loadConfig();
  const secrets = createSecrets(loadSecretsKey(config), config.secretsKeyPrevious);
  const { openDatabase } = await import('./platform/db/open.ts');
  const { RotationError, rotateSecrets } = await import('./secrets-rotation.ts');
  const database = await openDatabase(config, () => undefined, 1);
  try {
    const counts = await rotateSecrets(database.db, secrets, { batchSize });
    for (const c of counts) process.stdout.write(`${c.field}: ${c.sealed} sealed, ${c.resealed} re-sealed\n`);
    const total = counts.reduce((n, c) => n + c.resealed, 0);
    process.stdout.write(`re-sealed ${total} value(s) under SECRETS_KEY\n`);
    return 0;
  } catch (err) {
    if (err instanceof RotationError) {
      console.error(`error: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'zapier:client') return zapierClient();
  if (command === 'secrets:rotate') return secretsRotate(rest);
  if (command !== 'user:create') fail(`unknown command "${command}"`);
  const input = parseUserCreate(rest);
  const config = loadConfig();
  const [{ openDatabase }, { createUser }, { platformSystemContext }, { ports }, { default: pino }] =
    await Promise.all([
      import('./platform/db/open.ts'),
      import('./modules/users/service.ts'),
      import('./platform/tenancy/context.ts'),
      import('./ports.ts'),
      import('pino'),
    ]);
  const database = await openDatabase(config, () => undefined, 1);
  try {
    // Creating a user sends no mail: the CLI has the database and the config only.
    const deps = { db: database.db, config, log: pino({ level: 'silent' }), ports } as Deps;
    const id = await createUser(platformSystemContext(deps, 'cli', 'user:create'), input);
    process.stdout.write(`${id}\n`);
    return 0;
  } catch (err) {
    if (err instanceof AppError && err.fields) {
      const [field, key] = Object.entries(err.fields)[0] ?? ['value', err.message];
      fail(
        `--${field.replace('_', '-')}: ${translate(parseIssueMessage(key).key, 'en', { name: fieldLabel([field]) })}`,
      );
    }
    throw err;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (
      err instanceof UsageError ||
      err instanceof ConfigError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      console.error(`error: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
