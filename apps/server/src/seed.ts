// The first start's data (the main agency; with demo data the demo tenants and their users). Users are
// created through the users module; the agencies and businesses here are plain rows of a fresh database.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { seedDemoCalls } from './demo-analytics.ts';
import { seedDemoAutomations, seedTemplateAutomations } from './demo-automations.ts';
import { ACME_STRIPE, seedDemoBilling } from './demo-billing.ts';
import { seedDemoBroadcasts } from './demo-broadcasts.ts';
import { seedDemoLeadForms } from './demo-leadforms.ts';
import { claimWhitelabel } from './modules/agencies/service.ts';
import { agencies } from './modules/agencies/tables.ts';
import { businesses } from './modules/businesses/tables.ts';
import { createInstall, DEMO_INSTALL_NAME } from './modules/installs/service.ts';
import { addDemoNumber, DEMO_INSTALL_NUMBER } from './modules/telephony/service.ts';
import { createUser } from './modules/users/service.ts';
import type { Config } from './platform/config.ts';
import type { Deps } from './platform/deps.ts';
import { type Ctx, inTransaction, platformSystemContext } from './platform/tenancy/context.ts';
import { ports } from './ports.ts';

export type DemoLogin = { label: string; email: string; password: string; site: string };

const svgLogo = (text: string, color: string) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="48" viewBox="0 0 200 48"><rect width="200" height="48" rx="8" fill="${color}"/><text x="100" y="31" font-family="Arial,sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`,
  ).toString('base64')}`;

/** Demo accounts, printed at start and listed in the README. */
export function demoLogins(config: Config): DemoLogin[] {
  const port = config.port === 80 ? '' : `:${config.port}`;
  const main = `http://${config.mainDomain}${port}`;
  const acme = `http://acme.${config.mainDomain}${port}`;
  return [
    { label: 'SuperAdmin', email: 'admin@demo.test', password: 'demo-admin-1', site: main },
    { label: 'AgencyAdmin (main agency)', email: 'agency@demo.test', password: 'demo-agency-1', site: main },
    { label: 'AgencyAdmin (Acme)', email: 'owner@acme.test', password: 'demo-acme-1', site: acme },
    {
      label: 'AgencyUser AccountManager (Acme)',
      email: 'accounts@acme.test',
      password: 'demo-acme-2',
      site: acme,
    },
    {
      label: 'BusinessAdmin (Bright Dental)',
      email: 'admin@brightdental.test',
      password: 'demo-dental-1',
      site: acme,
    },
    {
      label: 'AdminSupport (Bright Dental)',
      email: 'support@brightdental.test',
      password: 'demo-dental-2',
      site: acme,
    },
    {
      label: 'SalesUser, SMS agent (Bright Dental)',
      email: 'sales@brightdental.test',
      password: 'demo-dental-3',
      site: acme,
    },
    {
      label: 'Custom type user (Bright Dental)',
      email: 'frontdesk@brightdental.test',
      password: 'demo-dental-4',
      site: acme,
    },
    {
      label: 'BusinessAdmin (Sunny Plumbing, not subscribed yet: pays by card)',
      email: 'owner@sunnyplumbing.test',
      password: 'demo-sunny-1',
      site: acme,
    },
  ];
}

/** A sandbox carrier account for a demo agency (the sandbox creates it on first use). */
function sandboxAccount() {
  return {
    accountSid: `AC${crypto.randomBytes(16).toString('hex')}`,
    authToken: crypto.randomBytes(16).toString('hex'),
    sandbox: true,
  };
}

/** Bright Dental's demo install gets a sandbox number to call from, so a callback works on `npm start`. */
async function demoNumber(ctx: Ctx, input: { agencyId: number; businessId: number }) {
  const res = await ctx.db.execute(
    sql`select id from installs where business_id = ${input.businessId} order by id limit 1`,
  );
  const install = res.rows[0] as { id: number } | undefined;
  if (!install) return;
  await addDemoNumber(ctx, { ...input, installId: install.id, phoneNumber: DEMO_INSTALL_NUMBER });
}

/**
 * First start: the main agency on the main domain, always (the main domain must answer). With demo data,
 * also a SuperAdmin, the Acme agency on acme.<MAIN_DOMAIN> with its own branding, and a business with users
 * of several types. Returns the demo sign-ins whenever the demo data is there.
 */
export async function seedFirstStart(base: Pick<Deps, 'db' | 'config' | 'log'>): Promise<DemoLogin[]> {
  try {
    return await seedOnce(base);
  } catch (err) {
    // Several processes started at once on a new database (ADR 098): another one made the main agency
    // first (its transaction committed, so this one's insert failed): start on what it made.
    if (!mainAgencyTaken(err)) throw err;
    return seedOnce(base);
  }
}

/** The unique main agency's index refused a second one (through the query error's causes). */
function mainAgencyTaken(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'agencies_main_uq') return true;
  }
  return false;
}

async function seedOnce(base: Pick<Deps, 'db' | 'config' | 'log'>): Promise<DemoLogin[]> {
  // Runs before the app (and its mailer) exists; creating users sends no mail.
  const deps = { ...base, ports } as Deps;
  const { db, config } = deps;
  const logins = demoLogins(config);
  const [existing] = await db.select({ id: agencies.id }).from(agencies).where(eq(agencies.is_main, true));
  if (existing) {
    const [acme] = await db.select({ id: agencies.id }).from(agencies).where(eq(agencies.subdomain, 'acme'));
    return acme && config.demoData ? logins : [];
  }
  if (!config.demoData) {
    await db.insert(agencies).values({
      name: 'Start Texting Now',
      is_main: true,
      free_fee: true,
      branding: { title: 'Start Texting Now', landingPage: false },
    });
    return [];
  }
  const pw = (email: string) => logins.find((l) => l.email === email)?.password ?? '';
  await inTransaction(platformSystemContext(deps, 'seed', 'demo data'), async (ctx) => {
    const tx = ctx.db;
    const [main] = await tx
      .insert(agencies)
      .values({
        name: 'Start Texting Now',
        email: 'support@demo.test',
        is_main: true,
        free_fee: true,
        zapier_enabled: true,
        department_enabled: true,
        branding: {
          title: 'Start Texting Now',
          headerLogo: svgLogo('Start Texting Now', '#1a76d2'),
          supportEmail: 'support@demo.test',
          address: '100 Main Street, Austin, TX 78701',
          landingPage: true,
        },
        // The demo runs on the sandbox carrier (ADR 026): an account of its own, the token sealed at start.
        twilio_config: sandboxAccount(),
        properties: { installs: 100 },
      })
      .returning();
    const [acme] = await tx
      .insert(agencies)
      .values({
        name: 'Acme Callbacks',
        email: 'hello@acme.test',
        subdomain: 'acme',
        free_fee: true,
        department_enabled: true,
        branding: {
          title: 'Acme Callbacks',
          headerLogo: svgLogo('Acme Callbacks', '#d2461a'),
          loginLogo: svgLogo('Acme', '#d2461a'),
          supportEmail: 'help@acme.test',
          address: '42 Harbor Road, Portland, ME 04101',
          landingPage: true,
        },
        twilio_config: sandboxAccount(),
        // Card payments on a Stripe sandbox account of its own (ADR 076); the secret is sealed at start.
        stripe_config: ACME_STRIPE,
        properties: { installs: 25 },
      })
      .returning();
    if (!main || !acme) throw new Error('seed failed');
    // Its white-label entry, as Add Agency makes it (the same service call): acme.<MAIN_DOMAIN>.
    await claimWhitelabel(ctx, { agencyId: acme.id, domain: 'acme', type: 'subdomain' });
    const [dental] = await tx
      .insert(businesses)
      .values({
        agency_id: acme.id,
        name: 'Bright Dental',
        free_fee: true,
        number_of_users: 5,
        // Room beyond its two demo automations, so a visitor can build one more (the plan's limit holds).
        number_of_automations: 10,
        dep_enabled: true,
      })
      .returning();
    if (!dental) throw new Error('seed failed');
    // A business that pays Acme by card and has not subscribed yet: held on Subscriptions (issue 22).
    const [sunny] = await tx
      .insert(businesses)
      .values({ agency_id: acme.id, name: 'Sunny Plumbing', free_fee: false })
      .returning();
    if (!sunny) throw new Error('seed failed');
    const user = (email: string, rest: Omit<Parameters<typeof createUser>[1], 'email' | 'password'>) =>
      createUser(ctx, { email, password: pw(email), emailVerified: true, ...rest });
    await user('admin@demo.test', { role: 'SuperAdmin', firstName: 'Sam', lastName: 'Super' });
    await user('agency@demo.test', {
      role: 'AgencyAdmin',
      agencyId: main.id,
      firstName: 'Maya',
      lastName: 'Main',
    });
    await user('owner@acme.test', {
      role: 'AgencyAdmin',
      agencyId: acme.id,
      firstName: 'Alex',
      lastName: 'Acme',
    });
    await user('accounts@acme.test', {
      role: 'AgencyUser',
      userType: '1',
      agencyId: acme.id,
      firstName: 'Ann',
      lastName: 'Accounts',
    });
    await user('owner@sunnyplumbing.test', {
      role: 'BusinessAdmin',
      businessId: sunny.id,
      firstName: 'Sunny',
      lastName: 'Pipes',
    });
    await seedDemoBilling(ctx, { mainId: main.id, acmeId: acme.id });
    const owner = await user('admin@brightdental.test', {
      role: 'BusinessAdmin',
      businessId: dental.id,
      agentType: 'agent',
      firstName: 'Dana',
      lastName: 'Bright',
      phone: '+15005550102',
    });
    await user('support@brightdental.test', {
      role: 'BusinessUser',
      userType: '1',
      businessId: dental.id,
      firstName: 'Sid',
      lastName: 'Support',
    });
    const sales = await user('sales@brightdental.test', {
      role: 'BusinessUser',
      userType: '3',
      agentType: 'smsAgent',
      businessId: dental.id,
      firstName: 'Sally',
      lastName: 'Sales',
    });
    await user('frontdesk@brightdental.test', {
      role: 'BusinessUser',
      userType: '4',
      agentType: 'agent',
      businessId: dental.id,
      firstName: 'Fran',
      lastName: 'Desk',
      settings: { custom_type_pages: ['inbox_page', 'contacts_page', 'tasks_page', 'calls_page'] },
    });
    await tx.update(businesses).set({ owner_id: owner }).where(eq(businesses.id, dental.id));
    // Its widget on its website, ringing two staff phones (the sandbox's phones), so that `npm start`
    // shows a working install. Made by the installs service in the business's own context, inside the
    // seed's one (platform) transaction: the app and its tenants' connections do not exist yet.
    const dentalCtx: Ctx = {
      ...ctx,
      tenant: { level: 'business', agencyId: acme.id, businessId: dental.id },
      by: { kind: 'system', source: 'seed', name: 'demo install' },
    };
    await createInstall(dentalCtx, {
      name: DEMO_INSTALL_NAME,
      website: 'https://brightdental.example',
      settings: {
        phoneAgents: [
          { user_id: null, name: 'Front desk', phone: '+15005550101' },
          { user_id: owner, name: 'Dr. Bright', phone: '+15005550102' },
        ],
        // Sally Sales answers the install's texts: as an SMS agent she works its conversations in the inbox.
        smsAgents: [sales],
        caller_id: null,
        // Recorded, so that the demo's call detail plays its recording.
        call_recording: true,
        // Open around the clock, so that the demo's callback rings whenever `npm start` is run; the
        // spec's default hours (Monday to Friday 08:00AM-05:00PM) are what a new install gets.
        hours: Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
            day,
            { open: true, from: '12:00AM', to: '11:59PM' },
          ]),
        ),
      },
    });
    await demoNumber(ctx, { agencyId: acme.id, businessId: dental.id });
    // Tagged contacts, two broadcast numbers and a finished broadcast with its report (issue 19).
    const [demoInstall] = (
      await tx.execute(sql`select id from installs where business_id = ${dental.id} order by id limit 1`)
    ).rows as { id: number }[];
    if (demoInstall)
      await seedDemoBroadcasts(ctx, {
        agencyId: acme.id,
        businessId: dental.id,
        installId: demoInstall.id,
        installNumber: DEMO_INSTALL_NUMBER,
        userId: owner,
      });
    // Five weeks of calls before today, for the dashboards (issue 24).
    if (demoInstall)
      await seedDemoCalls(ctx, {
        agencyId: acme.id,
        businessId: dental.id,
        installId: demoInstall.id,
        agents: [
          { id: owner, name: 'Dr. Bright' },
          { id: null, name: 'Front desk' },
        ],
      });
    // A two-step lead form in English and Spanish, on the widget and embedded on the contact page (issue 21).
    if (demoInstall) await seedDemoLeadForms(dentalCtx, { installId: demoInstall.id });
    // Two active automations (issue 20): a missed call's follow-up text, and the PRICE keyword's reply.
    await seedDemoAutomations(ctx, { agencyId: acme.id, businessId: dental.id, userId: owner });
    // A template business of Acme: its automations are the gallery its businesses copy from (issue 20).
    const [templates] = await tx
      .insert(businesses)
      .values({
        agency_id: acme.id,
        name: 'Acme Templates',
        free_fee: true,
        is_template: true,
        number_of_automations: 10,
      })
      .returning();
    if (!templates) throw new Error('seed failed');
    await seedTemplateAutomations(ctx, { agencyId: acme.id, businessId: templates.id });
  });
  return logins;
}
