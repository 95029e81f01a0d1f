import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { agencies, type EntityStatus } from '../agencies/tables.ts';

// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

/**
 * The tenant keys of a business's row: its agency and its business (both required). Every table a business
 * owns starts with them, so that `scope(ctx, table)` finds them under the same names.
 */
export const tenantKeys = () => ({
  agency_id: integer('agency_id')
    .notNull()
    .references(() => agencies.id),
  business_id: integer('business_id')
    .notNull()
    .references((): AnyPgColumn => businesses.id),
});

export const businesses = pgTable(
  'businesses',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    name: text('name').notNull(),
    owner_id: integer('owner_id'),
    status: text('status').$type<EntityStatus>().notNull().default('active'),
    active: boolean('active').notNull().default(true),
    free_fee: boolean('free_fee').notNull().default(false),
    is_template: boolean('is_template').notNull().default(false),
    widget_type: integer('widget_type').notNull().default(3),
    is_on_trial: boolean('is_on_trial').notNull().default(false),
    calls: integer('calls').notNull().default(200),
    number_of_calls: integer('number_of_calls').notNull().default(0),
    messages: integer('messages').notNull().default(2000),
    number_of_messages: integer('number_of_messages').notNull().default(0),
    number_of_users: integer('number_of_users').notNull().default(1),
    number_of_installs: integer('number_of_installs').notNull().default(1),
    number_of_automations: integer('number_of_automations').notNull().default(2),
    dep_enabled: boolean('dep_enabled').notNull().default(false),
    caller_id_enabled: boolean('caller_id_enabled').notNull().default(false),
    custom_number_enabled: boolean('custom_number_enabled').notNull().default(false),
    form_enabled: boolean('form_enabled').notNull().default(false),
    sendgrid_enabled: boolean('sendgrid_enabled').notNull().default(false),
    ai_enabled: boolean('ai_enabled').notNull().default(false),
    subscription_plan_id: integer('subscription_plan_id'),
    opt_out_msg: text('opt_out_msg'),
    report_emails: jsonb('report_emails').$type<string[]>().notNull().default([]),
    report_schedules: jsonb('report_schedules').$type<string[]>().notNull().default([]),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    has_sales_user_extension: boolean('has_sales_user_extension').notNull().default(false),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * The business's own carrier account (issue 26, PUT /v1/agencies/{business_id}/twilio-config): its calls
     * and texts go through it instead of the agency's. Null: the agency's account. The token is sealed.
     */
    twilio_config: jsonb('twilio_config').$type<{
      accountSid: string;
      authToken: string;
      sandbox?: boolean;
    }>(),
    ...timestamps,
  },
  (t) => [index('businesses_agency_idx').on(t.agency_id)],
);
