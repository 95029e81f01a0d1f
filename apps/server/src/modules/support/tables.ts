import { sql } from 'drizzle-orm';
import { check, integer, pgTable } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { installs } from '../installs/tables.ts';

/**
 * The platform's support chat (spec 000 §2 Layout, issue 11): one row, the install agencies get and the
 * install businesses under the main agency get (null: none). Installs are never removed (deleted is a
 * list), so the foreign keys always hold; a picked install that leaves the active list stops loading.
 */
export const supportWidgetSettings = pgTable(
  'support_widget_settings',
  {
    id: integer('id').primaryKey().default(1),
    support_widget_agency_install_id: integer('support_widget_agency_install_id').references(
      () => installs.id,
    ),
    support_widget_business_install_id: integer('support_widget_business_install_id').references(
      () => installs.id,
    ),
    updated_by: integer('updated_by'),
    ...timestamps,
  },
  (t) => [check('support_widget_settings_one_row', sql`${t.id} = 1`)],
);
