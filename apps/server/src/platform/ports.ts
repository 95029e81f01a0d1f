import type { Tx } from './db/client.ts';
import type { Ctx } from './tenancy/context.ts';

/** What the users module checks of a business (its owner, seat limit, departments switch). */
export type BusinessLimits = {
  owner_id: number | null;
  number_of_users: number;
  number_of_installs: number;
  dep_enabled: boolean;
  settings: Record<string, unknown>;
};

/** Where a user's mail comes from: the agency's site, its title and name, and the white-label sender. */
export type MailSite = {
  url: string;
  title: string;
  name: string;
  support: string | null;
  sender: { fromName?: string; replyTo?: string | null };
};

/** An install's carrier number and what it can do. */
export type InstallNumber = { phone_number: string; voice: boolean; sms: boolean };

/** A message a business (or, businessId null, an agency) sends through its own e-mail (ADR 090). */
export type OwnMailMessage = {
  agencyId: number;
  businessId: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  replyTo?: string | null;
  /** The sender's name when the account has none (the business's name). */
  fromName?: string | null;
  /** What sent it: inbox, automation, leadform, alert, report... */
  source: string;
  contactId?: number | null;
};

/**
 * What a lower module asks of a higher one without importing it (ADR 054): each port is answered by the
 * module that owns the data and wired in app.ts, as the session holder is. Plain data in and out, so
 * that neither side knows the other's code.
 */
export type Ports = {
  /**
   * The accounts users belong to, asked by the users (rank 2) and auth (3) modules, answered by
   * businesses (4) and agencies (5).
   */
  accounts: {
    /** Whether a user's agency and business (where they have them) let them in: switched on and active. */
    letsIn(ctx: Ctx, input: { agencyId: number | null; businessId: number | null }): Promise<boolean>;
    /** Where the mail of a user of that agency comes from (null: a platform user, the main agency). */
    mailSite(ctx: Ctx, input: { agencyId: number | null }): Promise<MailSite>;
    /** The agency of a business; null when there is no such business. */
    agencyOfBusiness(ctx: Ctx, input: { businessId: number }): Promise<number | null>;
    /** How many live (not deleted) businesses of the agency are on a plan (asked by billing, rank 1). */
    businessesOnPlan(ctx: Ctx, input: { agencyId: number; planId: number }): Promise<number>;
    /** Whether an agency exists (whatever its status; asked by users and billing). */
    agencyExists(ctx: Ctx, input: { id: number }): Promise<boolean>;
    /** A business's owner, seat limit and departments switch; `lock` takes the row's lock. */
    businessLimits(ctx: Ctx, input: { id: number; lock?: boolean }): Promise<BusinessLimits | undefined>;
  };
  /** Agencies as the businesses module (rank 4) needs them, answered by agencies (5). */
  agencies: {
    /** The names of these agencies, by id. */
    names(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, string>>;
    /**
     * The installs an agency may hand out to its businesses (none set: 0); null when there is no such
     * agency. `lock` takes the agency row's lock, so that concurrent adds cannot both spend the last ones.
     */
    installAllowance(ctx: Ctx, input: { agencyId: number; lock?: boolean }): Promise<number | null>;
  };
  /** Carrier numbers as the installs module (rank 6) shows them, answered by telephony (7). */
  numbers: {
    /** The number assigned to each of these installs, by install id. */
    ofInstalls(ctx: Ctx, input: { installIds: number[] }): Promise<Map<number, InstallNumber>>;
  };
  /**
   * Automations as the contacts module (rank 7) starts and stops them (the three contact automation
   * calls), answered by automations (10), in the caller's transaction.
   */
  automations: {
    /**
     * Whether the automation is one of the context's business's (not deleted) and switched on: 'active'
     * or 'inactive'; null when there is no such automation (another business's, deleted, never made).
     */
    status(ctx: Ctx, input: { automationId: number }): Promise<'active' | 'inactive' | null>;
    /** Starts a journey (direct-call) for each of these contacts; answers how many started. */
    enter(ctx: Ctx, input: { automationId: number; contactIds: number[] }): Promise<number>;
    /** Stops the contact's journey in the automation; false when it had none in progress. */
    stop(ctx: Ctx, input: { automationId: number; contactId: number }): Promise<boolean>;
  };
  /**
   * Lead forms as the installs module (rank 6) checks an install's `lead_form_id`, answered by leadforms (10)
   * (issue 21).
   */
  leadForms: {
    /** Whether the id is a live (not deleted) lead form of the context's business. */
    isLive(ctx: Ctx, input: { id: number }): Promise<boolean>;
  };
  /**
   * The profile user of spec 000 §3, asked by the subscriptions module (rank 6) for the answers of subscribe,
   * cancel and resume (spec 001: "the returned user replaces the stored user"), answered by profile (12).
   */
  profile: {
    user(ctx: Ctx, input: { userId: number }): Promise<unknown>;
  };
  /**
   * The review links of installs (their Google location's, ADR 091), asked by templates (9), broadcasts and
   * automations (10) for the merge field {review_link}, answered by integrations (11). An install without a
   * location has none in the map.
   */
  reviews: {
    linksOfInstalls(ctx: Ctx, input: { installIds: number[] }): Promise<Map<number, string>>;
  };
  /**
   * The business's own e-mail (ADR 090), asked by chats, automations and leadforms, answered by
   * integrations (11): queues the message through the owner's default SMTP account or SendGrid integration,
   * in `db` (the caller's transaction) when given; false, nothing written, when it has neither (the caller
   * then sends through deps.mailer).
   */
  ownMail: {
    send(ctx: Ctx, input: OwnMailMessage, db?: Tx): Promise<boolean>;
  };
};
