import {
  CONTACT_IMPORT_COLUMNS,
  CONTACT_IMPORT_MAX_ROWS,
  isEmail,
  isIsoDate,
  type TContactImportRequest,
} from '@stn/contracts/contacts';
import { toE164 } from '@stn/contracts/users';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { invalid } from '../../platform/http/errors.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { businessOf, type Ctx, found, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { reachRule } from '../compliance/service.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { listFieldRows } from './fields.ts';
import { announceTagged } from './service.ts';
import { contactImports, contacts, contactTags } from './tables.ts';
import { tagIdsByName } from './tags.ts';

// The CSV import of contacts (ADR 035): POST checks the file's shape and answers { import_id } at once; a
// job works the rows in chunks, writing its progress, so that the web app's progress bar reads it with
// GET /v1/contacts/import/{id}. A bad row never stops the others: it is reported with its line and reason.

type ImportError = { line: number; key: string; params?: Record<string, string | number> };
type Record_ = { line: number; cells: string[] };

/**
 * RFC 4180 records: quoted cells may hold commas, quotes ("") and line breaks. Each record carries the
 * file line it starts on (1 is the header), which is what a person sees in a spreadsheet or editor.
 */
export function parseCsv(text: string): Record_[] {
  const out: Record_[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0]?.trim() === '')) out.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return out;
}

/** A header cell as a key: "First Name" -> first_name. */
const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** A date cell: YYYY-MM-DD, or M/D/YYYY as US spreadsheets write it. */
function dateOf(value: string): string | null {
  const v = value.trim();
  if (isIsoDate(v)) return v;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (!m) return null;
  const iso = `${m[3]}-${m[1]?.padStart(2, '0')}-${m[2]?.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** The file's header and data rows, or a 422 on `csv` (no phone column, no rows, too many rows). */
function readFile(csv: string) {
  const records = parseCsv(csv);
  const [header, ...rows] = records;
  if (!header) throw invalid('csv', 'contacts.import_empty');
  const columns = header.cells.map(headerKey);
  if (!columns.includes('phone')) throw invalid('csv', 'contacts.import_no_phone');
  if (rows.length === 0) throw invalid('csv', 'contacts.import_empty');
  if (rows.length > CONTACT_IMPORT_MAX_ROWS)
    throw invalid('csv', 'contacts.import_too_many', { max: CONTACT_IMPORT_MAX_ROWS });
  return { columns, rows };
}

/** Starts an import: the file is checked and stored, and the job enqueued in the same transaction. */
export async function startImport(ctx: Ctx, input: TContactImportRequest): Promise<{ import_id: number }> {
  const { agencyId, businessId } = businessOf(ctx);
  const { rows } = readFile(input.csv);
  if (input.install_id) {
    const list = await installsOfBusiness(ctx);
    if (!list.some((i) => i.id === input.install_id)) throw invalid('install_id', 'contacts.install_invalid');
  }
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(contactImports)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        user_id: ctx.by.kind === 'user' ? ctx.by.actor.userId : null,
        install_id: input.install_id ?? null,
        csv: input.csv,
        total: rows.length,
      })
      .returning({ id: contactImports.id });
    const created = found(row);
    await ctx.deps.queue.send(tx.db, contactImportJob, { importId: created.id, agencyId, businessId });
    tx.afterCommit(() => ctx.deps.queue.nudge(contactImportJob.name));
    return { import_id: created.id };
  });
}

export type ImportStatus = {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  processed: number;
  total: number;
  imported: number;
  errors: ImportError[];
};

/** An import of the context's business (another's is a 404). */
export async function importStatus(ctx: Ctx, input: { id: number }): Promise<ImportStatus> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({
      id: contactImports.id,
      status: contactImports.status,
      processed: contactImports.processed,
      total: contactImports.total,
      imported: contactImports.imported,
      errors: contactImports.errors,
    })
    .from(contactImports)
    .where(and(eq(contactImports.id, input.id), eq(contactImports.business_id, businessId)));
  return found(row);
}

const CHUNK = 500;
/** Columns an export carries that an import reads past without a word (an export imports back). */
const EXPORT_ONLY_COLUMNS = [
  'anniversary',
  'source',
  'opted_out',
  'blocked',
  'last_message_at',
  'created_at',
];

type Parsed = {
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  birthday: string | null;
  anniversary: string | null;
  fields: Record<string, string>;
  tags: string[];
};

/** One row checked: the contact's values, or the reason it is refused. */
function parseRow(
  columns: string[],
  cells: string[],
  fieldKeys: Set<string>,
): { ok: Parsed } | { error: Omit<ImportError, 'line'> } {
  // A ' before a formula character is the mark our CSV writer (and spreadsheets) put there: not data.
  const get = (name: string) => {
    const i = columns.indexOf(name);
    return i < 0 ? '' : (cells[i] ?? '').trim().replace(/^'(?=\s*[=+\-@])/, '');
  };
  const rawPhone = get('phone');
  if (!rawPhone) return { error: { key: 'contacts.import_phone_required' } };
  const phone = toE164(rawPhone);
  if (!phone)
    return { error: { key: 'contacts.import_phone_invalid', params: { value: rawPhone.slice(0, 40) } } };
  const email = get('email').toLowerCase();
  if (email && (email.length > 191 || !isEmail(email)))
    return { error: { key: 'contacts.import_email_invalid', params: { value: email.slice(0, 60) } } };
  const rawBirthday = get('birthday');
  const birthday = rawBirthday ? dateOf(rawBirthday) : null;
  if (rawBirthday && !birthday)
    return { error: { key: 'contacts.import_date_invalid', params: { value: rawBirthday.slice(0, 40) } } };
  const rawAnniversary = get('anniversary');
  const anniversary = rawAnniversary ? dateOf(rawAnniversary) : null;
  if (rawAnniversary && !anniversary)
    return {
      error: { key: 'contacts.import_anniversary_invalid', params: { value: rawAnniversary.slice(0, 40) } },
    };
  const first_name = get('first_name');
  const last_name = get('last_name');
  if (first_name.length > 100 || last_name.length > 100)
    return { error: { key: 'contacts.import_name_long' } };
  const fields: Record<string, string> = {};
  for (const key of fieldKeys) {
    const v = get(key);
    if (v.length > 1000) return { error: { key: 'contacts.import_value_long', params: { column: key } } };
    if (v) fields[key] = v;
  }
  const tags = get('tags')
    .split(/[;|]/)
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.some((t) => t.length > 100)) return { error: { key: 'contacts.import_tag_long' } };
  return { ok: { phone, first_name, last_name, email: email || null, birthday, anniversary, fields, tags } };
}

/** Works one import: chunk by chunk, each in its own transaction, progress written after each. */
async function runImport(deps: Deps, payload: { importId: number; agencyId: number; businessId: number }) {
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: payload.agencyId, businessId: payload.businessId },
    { kind: 'system', source: 'job', name: 'contacts.import' },
  );
  const [job] = await deps.db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, payload.importId), eq(contactImports.business_id, payload.businessId)));
  // A repeated job finds its import finished (or gone) and does nothing.
  if (!job || job.status === 'done' || job.status === 'failed' || job.csv === null) return;
  const { columns, rows } = readFile(job.csv);
  const fieldKeys = new Set((await listFieldRows(ctx)).map((f) => f.key));
  const reach = await reachRule(ctx);
  const errors: ImportError[] = [];
  const known = new Set<string>([...CONTACT_IMPORT_COLUMNS, ...EXPORT_ONLY_COLUMNS, ...fieldKeys]);
  const seen = new Set<string>();
  columns.forEach((c) => {
    if (c && !known.has(c) && !seen.has(c)) {
      seen.add(c);
      errors.push({ line: 1, key: 'contacts.import_column_ignored', params: { column: c } });
    }
  });
  await deps.db
    .update(contactImports)
    .set({ status: 'running', processed: 0, imported: 0, errors, updated_at: new Date() })
    .where(eq(contactImports.id, job.id));
  const importedPhones = new Set<string>();
  let imported = 0;
  for (let from = 0; from < rows.length; from += CHUNK) {
    const chunk = rows.slice(from, from + CHUNK);
    // The last row of the file with a phone wins; earlier rows with the same phone merge into it.
    const byPhone = new Map<string, Parsed>();
    for (const r of chunk) {
      const res = parseRow(columns, r.cells, fieldKeys);
      if ('error' in res) {
        errors.push({ line: r.line, ...res.error });
        continue;
      }
      // A number the business may not call or text is not imported (ADR 051).
      if (reach(res.ok.phone, 'contact')) {
        errors.push({
          line: r.line,
          key: 'contacts.import_phone_unreachable',
          params: { value: res.ok.phone },
        });
        continue;
      }
      const prev = byPhone.get(res.ok.phone);
      byPhone.set(
        res.ok.phone,
        prev
          ? {
              ...res.ok,
              first_name: res.ok.first_name || prev.first_name,
              last_name: res.ok.last_name || prev.last_name,
              email: res.ok.email ?? prev.email,
              birthday: res.ok.birthday ?? prev.birthday,
              anniversary: res.ok.anniversary ?? prev.anniversary,
              fields: { ...prev.fields, ...res.ok.fields },
              tags: [...prev.tags, ...res.ok.tags],
            }
          : res.ok,
      );
    }
    const good = [...byPhone.values()];
    for (const p of good) importedPhones.add(p.phone);
    imported = importedPhones.size;
    await inTransaction(ctx, async (tx) => {
      if (good.length > 0) {
        const saved = await tx.db
          .insert(contacts)
          .values(
            good.map((p) => ({
              agency_id: payload.agencyId,
              business_id: payload.businessId,
              install_id: job.install_id,
              phone: p.phone,
              first_name: p.first_name,
              last_name: p.last_name,
              email: p.email,
              birthday: p.birthday,
              anniversary: p.anniversary,
              fields: p.fields,
              source: 'cms' as const,
            })),
          )
          // An existing contact keeps what the file leaves empty and takes what it gives.
          .onConflictDoUpdate({
            target: [contacts.business_id, contacts.phone],
            targetWhere: sql`${contacts.deleted_at} is null`,
            set: {
              first_name: sql`coalesce(nullif(excluded.first_name, ''), ${contacts.first_name})`,
              last_name: sql`coalesce(nullif(excluded.last_name, ''), ${contacts.last_name})`,
              email: sql`coalesce(excluded.email, ${contacts.email})`,
              birthday: sql`coalesce(excluded.birthday, ${contacts.birthday})`,
              anniversary: sql`coalesce(excluded.anniversary, ${contacts.anniversary})`,
              fields: sql`${contacts.fields} || excluded.fields`,
              updated_at: sql`now()`,
            },
          })
          .returning({ id: contacts.id, phone: contacts.phone });
        const names = good.flatMap((p) => p.tags);
        if (names.length > 0) {
          const tagIds = await tagIdsByName(tx, names);
          const idOf = new Map(saved.map((s) => [s.phone, s.id]));
          const links = good.flatMap((p) => {
            const contact_id = idOf.get(p.phone);
            if (!contact_id) return [];
            return [...new Set(p.tags.map((t) => tagIds.get(t.toLowerCase())))].flatMap((tag_id) =>
              tag_id ? [{ contact_id, tag_id }] : [],
            );
          });
          if (links.length > 0) {
            const added = await tx.db
              .insert(contactTags)
              .values(links)
              .onConflictDoNothing()
              .returning({ contact_id: contactTags.contact_id, tag_id: contactTags.tag_id });
            announceTagged(tx, added);
          }
        }
      }
      await tx.db
        .update(contactImports)
        .set({ processed: from + chunk.length, imported, errors, updated_at: new Date() })
        .where(eq(contactImports.id, job.id));
    });
  }
  await deps.db
    .update(contactImports)
    .set({ status: 'done', csv: null, updated_at: new Date() })
    .where(eq(contactImports.id, job.id));
}

export const contactImportJob = defineJob({
  name: 'contacts.import',
  payload: z.object({ importId: z.number().int(), agencyId: z.number().int(), businessId: z.number().int() }),
  retry: { limit: 2, delaySeconds: 5, backoff: true },
  handler: async (deps, payload, run) => {
    try {
      await runImport(deps, payload);
    } catch (err) {
      // After the last attempt the import is marked failed, so that the progress bar stops.
      if (run.isLastAttempt)
        await deps.db
          .update(contactImports)
          .set({ status: 'failed', csv: null, updated_at: new Date() })
          .where(eq(contactImports.id, payload.importId));
      throw err;
    }
  },
});
