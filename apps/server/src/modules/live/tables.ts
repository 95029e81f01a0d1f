import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tz } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';
import { installs } from '../installs/tables.ts';

// The live module's table (ADR 083): the website visitors whose widget panel is open, one row per install
// and browser tab, refreshed by the widget's heartbeat. A visitor counts while seen in the last 75 s; a
// closed panel removes its row; old rows are swept as the install's visitors come and go.
export const widgetPresence = pgTable(
  'widget_presence',
  {
    ...tenantKeys(),
    install_id: integer('install_id')
      .notNull()
      .references(() => installs.id, { onDelete: 'cascade' }),
    /** A random id the widget draws per tab: not a person, not stored anywhere else. */
    visitor_id: text('visitor_id').notNull(),
    seen_at: tz('seen_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.install_id, t.visitor_id] }),
    index('widget_presence_business_idx').on(t.business_id, t.seen_at),
    index('widget_presence_agency_idx').on(t.agency_id, t.seen_at),
  ],
);
