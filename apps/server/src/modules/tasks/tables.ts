import { date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { tenantKeys } from '../businesses/tables.ts';
import { contacts } from '../contacts/tables.ts';
import { users } from '../users/tables.ts';

// The tasks module's table: a business's to-dos, each assigned to one of its users (the task badge counts
// the open ones assigned to the signed-in user), optionally about a contact.

export const tasks = pgTable(
  'tasks',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    contact_id: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** The assignee. */
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_by: integer('created_by'),
    due_date: date('due_date'),
    status: text('status').$type<'open' | 'done'>().notNull().default('open'),
    done_at: timestamp('done_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('tasks_business_idx').on(t.business_id, t.status),
    index('tasks_user_idx').on(t.user_id, t.status),
  ],
);
