import { CONTACT_IMPORT_COLUMNS } from '@stn/contracts/contacts';
import { asc, eq } from 'drizzle-orm';
import { type CsvCell, toCsv } from '../../platform/http/csv.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { listFieldRows } from './fields.ts';
import { EXPORT_ONLY_COLUMNS } from './import.ts';
import { contactScope, toContacts } from './service.ts';
import { contacts } from './tables.ts';

// CSV out: an install's contacts (GET /v1/chats/installs/{id}/contacts/export) and the import template
// (GET /v1/contacts/template-download). Both through the one CSV writer (ADR 021). The export's first
// columns are the import's, so an exported file imports back as it is.

/** The import template: the import's columns and the business's active custom field keys. */
export async function importTemplate(ctx: Ctx): Promise<string> {
  const keys = (await listFieldRows(ctx, true)).map((f) => f.key);
  return toCsv([...CONTACT_IMPORT_COLUMNS, ...keys], []);
}

export async function exportContacts(
  ctx: Ctx,
  input: { installId: number },
): Promise<{ csv: string; filename: string }> {
  const install = (await installsOfBusiness(ctx)).find((i) => i.id === input.installId);
  if (!install) throw notFound();
  const keys = (await listFieldRows(ctx)).map((f) => f.key);
  const rows = await ctx.db
    .select()
    .from(contacts)
    .where(contactScope(ctx, eq(contacts.install_id, install.id)))
    .orderBy(asc(contacts.id));
  const list = await toContacts(ctx, rows);
  const header = [...CONTACT_IMPORT_COLUMNS, ...keys, ...EXPORT_ONLY_COLUMNS];
  const out: CsvCell[][] = list.map((c) => [
    c.phone,
    c.first_name,
    c.last_name,
    c.email,
    c.birthday,
    c.tags.map((t) => t.name).join(';'),
    ...keys.map((k) => c.fields[k] ?? ''),
    c.anniversary,
    c.source,
    c.opted_out ? 'yes' : 'no',
    c.blocked ? 'yes' : 'no',
    c.last_message_at,
    c.created_at,
  ]);
  const slug = install.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || `install-${install.id}`;
  return { csv: toCsv(header, out), filename: `contacts-${slug}.csv` };
}
