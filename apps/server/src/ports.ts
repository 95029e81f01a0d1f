// The ports (ADR 054): what a lower module asks of a higher one, answered by the higher one and wired
// here, at the composition root, so that no module imports up the ranks. app.ts puts them in the
// dependencies; the CLI and the first-start seeding, which build their own, take them from here too.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  agencyExists,
  agencyLetsIn,
  agencyNames,
  installAllowance,
  mailSite,
} from './modules/agencies/service.ts';
import { automationsPort } from './modules/automations/port.ts';
import {
  agencyOfBusiness,
  businessesOnPlan,
  businessLetsIn,
  businessLimits,
} from './modules/businesses/service.ts';
import { reviewLinksOfInstalls } from './modules/integrations/google-service.ts';
import { sendOwnMail } from './modules/integrations/own-mail.ts';
import { isLiveLeadForm } from './modules/leadforms/service.ts';
import { profileUser } from './modules/profile/service.ts';
import { installNumbers } from './modules/telephony/install-numbers.ts';
import type { Ports } from './platform/ports.ts';

/**
 * Whether a user's agency and business let them in (switched on and active; an absent one does not stop
 * them): the one rule the session holder (app.ts) and the `accounts.letsIn` port both ask.
 */
export const accountLetsIn = (agencyId: SQLWrapper, businessId: SQLWrapper): SQL<boolean> =>
  sql<boolean>`(${agencyLetsIn(agencyId)} and ${businessLetsIn(businessId)})`;

/**
 * What lower modules ask of higher ones (ADR 054): the users module (rank 2) checks a new user's business
 * and agency and a business's owner and seats, and the auth module (3) whether a user's accounts let them
 * in and where their mail comes from, through the businesses (4) and agencies (5) modules; businesses asks
 * agencies for their names and install allowances; billing (1) asks whether an agency exists and how
 * many businesses are on a plan; installs (6) asks telephony (7) for its numbers and leadforms (10) whether a
 * lead form is live.
 */
export const ports: Ports = {
  accounts: {
    agencyOfBusiness,
    agencyExists,
    businessesOnPlan,
    businessLimits,
    mailSite,
    letsIn: async (ctx, ids) => {
      const result = await ctx.db.execute<{ ok: boolean }>(
        sql`select ${accountLetsIn(sql`${ids.agencyId}::integer`, sql`${ids.businessId}::integer`)} as ok`,
      );
      return result.rows[0]?.ok === true;
    },
  },
  agencies: { names: agencyNames, installAllowance },
  numbers: { ofInstalls: installNumbers },
  automations: automationsPort,
  leadForms: { isLive: isLiveLeadForm },
  profile: { user: (ctx, input) => profileUser(ctx, input.userId) },
  reviews: { linksOfInstalls: reviewLinksOfInstalls },
  ownMail: { send: sendOwnMail },
};
