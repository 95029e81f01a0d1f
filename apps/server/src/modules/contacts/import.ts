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
import { businessContactsSettings } from '../businesses/service.ts';
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
        duplicates: input.duplicates ?? 'skip',
      })
      .returning({ id: contactImports.id });
    const created = found(row);
    await ctx.deps.queue.send(tx.db, contactImportJob, { importId: created.id, agencyId, businessId });
    tx.afterCommit(() => ctx.deps.queue.committed(contactImportJob.name));
    return { import_id: created.id };
  });
}

/** The report's notes about duplicate rows (skipped or updating a contact), apart from bad rows. */
export const isDuplicateNote = (key: string) =>
  /^contacts\.import_(duplicate|repeated)_(skipped|updated)$/.test(key);

export type ImportStatus = {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  duplicates: 'skip' | 'update';
  processed: number;
  total: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: ImportError[];
};

/** An import of the context's business (another's is a 404). */
export async function importStatus(ctx: Ctx, input: { id: number }): Promise<ImportStatus> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({
      id: contactImports.id,
      status: contactImports.status,
      duplicates: contactImports.duplicates,
      processed: contactImports.processed,
      total: contactImports.total,
      imported: contactImports.imported,
      updated: contactImports.updated,
      skipped: contactImports.skipped,
      errors: contactImports.errors,
    })
    .from(contactImports)
    .where(and(eq(contactImports.id, input.id), eq(contactImports.business_id, businessId)));
  return found(row);
}

const CHUNK = 500;
/** Columns an export carries that an import reads past without a word (an export imports back). */
export const EXPORT_ONLY_COLUMNS = [
  'anniversary',
  'source',
  'opted_out',
  'blocked',
  'last_message_at',
  'created_at',
];

type Parsed = Pick<
  typeof contacts.$inferSelect,
  'phone' | 'first_name' | 'last_name' | 'email' | 'birthday' | 'anniversary' | 'fields'
> & { tags: string[] };

/**
 * A tags cell: "vip,cleaning", "vip; cleaning" and "vip|cleaning" are two tags. Trimmed, empty ones
 * dropped, one of each whatever its case (the first spelling is kept).
 */
export function tagsOf(cell: string): string[] {
  const out = new Map<string, string>();
  for (const raw of cell.split(/[,;|]/)) {
    const tag = raw.trim();
    if (tag && !out.has(tag.toLowerCase())) out.set(tag.toLowerCase(), tag);
  }
  return [...out.values()];
}

/** One row checked: the contact's values, or the reason it is refused. */
function parseRow(
  columns: string[],
  cells: string[],
  fieldKeys: Set<string>,
  country: string,
): { ok: Parsed } | { error: Omit<ImportError, 'line'> } {
  // A ' before a formula character is the mark our CSV writer (and spreadsheets) put there: not data.
  const get = (name: string) => {
    const i = columns.indexOf(name);
    return i < 0 ? '' : (cells[i] ?? '').trim().replace(/^'(?=\s*[=+\-@])/, '');
  };
  const rawPhone = get('phone');
  if (!rawPhone) return { error: { key: 'contacts.import_phone_required' } };
  const phone = toE164(rawPhone, country);
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
  const tags = tagsOf(get('tags'));
  if (tags.some((t) => t.length > 100)) return { error: { key: 'contacts.import_tag_long' } };
  return { ok: { phone, first_name, last_name, email: email || null, birthday, anniversary, fields, tags } };
}

/** Another run took the import over (or it ended): this one stops without a word. */
class Superseded extends Error {}

/** The row of an import the chunk belongs to, locked; another run that moved it on supersedes this one. */
async function lockProgress(tx: Ctx, id: number, from: number): Promise<void> {
  const res = await tx.db.execute<{ processed: number; status: string }>(
    sql`select processed, status from contact_imports where id = ${id} for update`,
  );
  const row = res.rows[0];
  if (row?.status !== 'running' || Number(row.processed) !== from) throw new Superseded();
}

/**
 * Works one import: chunk by chunk, each in its own transaction with its progress, so that a run killed
 * half-way is resumed from the last chunk written, by the job's retry or by the stall check
 * (`resumeStalledImports`), never writing a contact twice: a chunk is written only by the run that finds
 * the progress where it left it (ADR 052). A phone already a contact, or earlier in the file, is skipped
 * or updates the contact, as the import was asked to; each such row is in the report.
 */
async function runImport(deps: Deps, payload: { importId: number; agencyId: number; businessId: number }) {
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: payload.agencyId, businessId: payload.businessId },
    { kind: 'system', source: 'job', name: 'contacts.import' },
  );
  const read = async () =>
    (
      await deps.db
        .select()
        .from(contactImports)
        .where(
          and(eq(contactImports.id, payload.importId), eq(contactImports.business_id, payload.businessId)),
        )
    )[0];
  let job = await read();
  // A repeated job finds its import finished (or gone) and does nothing.
  if (!job || job.status === 'done' || job.status === 'failed' || job.csv === null) return;
  const { columns, rows } = readFile(job.csv);
  const fieldKeys = new Set((await listFieldRows(ctx)).map((f) => f.key));
  // A phone without its country code is read in the business's default country (ADR 094).
  const country = (await businessContactsSettings(ctx)).default_country;
  const reach = await reachRule(ctx);
  if (job.status === 'running') {
    // A resumed run's heartbeat: the import is being worked again, so it is not stalled.
    await deps.db
      .update(contactImports)
      .set({ updated_at: new Date() })
      .where(and(eq(contactImports.id, job.id), eq(contactImports.status, 'running')));
  }
  if (job.status === 'queued') {
    const notes: ImportError[] = [];
    const known = new Set<string>([...CONTACT_IMPORT_COLUMNS, ...EXPORT_ONLY_COLUMNS, ...fieldKeys]);
    const seen = new Set<string>();
    for (const c of columns) {
      if (c && !known.has(c) && !seen.has(c)) {
        seen.add(c);
        notes.push({ line: 1, key: 'contacts.import_column_ignored', params: { column: c } });
      }
    }
    await deps.db
      .update(contactImports)
      .set({ status: 'running', errors: notes, updated_at: new Date() })
      .where(and(eq(contactImports.id, job.id), eq(contactImports.status, 'queued')));
    job = await read();
    if (job?.status !== 'running') return;
  }
  const update = job.duplicates === 'update';
  const errors: ImportError[] = [...job.errors];
  let { imported, updated, skipped } = job;
  // The first line of each phone in the file; rows before a resumed run's start are read again for it.
  const firstLine = new Map<string, number>();
  for (const r of rows.slice(0, job.processed)) {
    const res = parseRow(columns, r.cells, fieldKeys, country);
    if ('ok' in res && !firstLine.has(res.ok.phone)) firstLine.set(res.ok.phone, r.line);
  }
  for (let from = job.processed; from < rows.length; from += CHUNK) {
    const chunk = rows.slice(from, from + CHUNK);
    const notes: ImportError[] = [];
    let chunkSkipped = 0;
    // Each phone's first row in the file, with later rows merged into it when updating.
    const byPhone = new Map<string, Parsed & { line: number }>();
    /** Phones of this chunk whose first row was in an earlier chunk (already written by this import). */
    const repeats = new Set<string>();
    const lines = new Map<string, number>();
    for (const r of chunk) {
      const res = parseRow(columns, r.cells, fieldKeys, country);
      if ('error' in res) {
        notes.push({ line: r.line, ...res.error });
        continue;
      }
      // A number the business may not call or text is not imported (ADR 051).
      if (reach(res.ok.phone, 'contact')) {
        notes.push({
          line: r.line,
          key: 'contacts.import_phone_unreachable',
          params: { value: res.ok.phone },
        });
        continue;
      }
      const phone = res.ok.phone;
      const first = firstLine.get(phone);
      if (first === undefined) {
        firstLine.set(phone, r.line);
        lines.set(phone, r.line);
        byPhone.set(phone, { ...res.ok, line: r.line });
        continue;
      }
      const key = update ? 'contacts.import_repeated_updated' : 'contacts.import_repeated_skipped';
      notes.push({ line: r.line, key, params: { phone, first } });
      if (!update) {
        chunkSkipped++;
        continue;
      }
      const prev = byPhone.get(phone);
      if (!prev) repeats.add(phone);
      byPhone.set(
        phone,
        prev
          ? {
              ...res.ok,
              line: prev.line,
              first_name: res.ok.first_name || prev.first_name,
              last_name: res.ok.last_name || prev.last_name,
              email: res.ok.email ?? prev.email,
              birthday: res.ok.birthday ?? prev.birthday,
              anniversary: res.ok.anniversary ?? prev.anniversary,
              fields: { ...prev.fields, ...res.ok.fields },
              tags: [...prev.tags, ...res.ok.tags],
            }
          : { ...res.ok, line: r.line },
      );
    }
    const good = [...byPhone.values()];
    let done: { imported: number; updated: number; skipped: number; notes: ImportError[] };
    try {
      done = await inTransaction(ctx, async (tx) => {
        await lockProgress(tx, job.id, from);
        let chunkImported = 0;
        let chunkUpdated = 0;
        const rowNotes: ImportError[] = [];
        let saved: { id: number; phone: string }[] = [];
        if (good.length > 0) {
          const values = good.map((p) => ({
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
          }));
          const target = [contacts.business_id, contacts.phone];
          const live = sql`${contacts.deleted_at} is null`;
          if (update) {
            const rowsOut = await tx.db
              .insert(contacts)
              .values(values)
              // An existing contact keeps what the file leaves empty and takes what it gives.
              .onConflictDoUpdate({
                target,
                targetWhere: live,
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
              .returning({ id: contacts.id, phone: contacts.phone, created: sql<boolean>`(xmax = 0)` });
            saved = rowsOut;
            for (const r of rowsOut) {
              if (r.created) chunkImported++;
              else if (!repeats.has(r.phone)) {
                chunkUpdated++;
                rowNotes.push({
                  line: lines.get(r.phone) ?? 0,
                  key: 'contacts.import_duplicate_updated',
                  params: { phone: r.phone },
                });
              }
            }
          } else {
            saved = await tx.db
              .insert(contacts)
              .values(values)
              .onConflictDoNothing({ target, where: live })
              .returning({ id: contacts.id, phone: contacts.phone });
            chunkImported = saved.length;
            const inserted = new Set(saved.map((r) => r.phone));
            for (const p of good)
              if (!inserted.has(p.phone)) {
                chunkSkipped++;
                rowNotes.push({
                  line: p.line,
                  key: 'contacts.import_duplicate_skipped',
                  params: { phone: p.phone },
                });
              }
          }
          const idOf = new Map(saved.map((r) => [r.phone, r.id]));
          const tagged = good.filter((p) => idOf.has(p.phone) && p.tags.length > 0);
          const names = tagged.flatMap((p) => p.tags);
          if (names.length > 0) {
            const tagIds = await tagIdsByName(tx, names);
            const links = tagged.flatMap((p) => {
              const contact_id = idOf.get(p.phone) as number;
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
        const all = [...notes, ...rowNotes].sort((a, b) => a.line - b.line);
        await tx.db
          .update(contactImports)
          .set({
            processed: from + chunk.length,
            imported: imported + chunkImported,
            updated: updated + chunkUpdated,
            skipped: skipped + chunkSkipped,
            errors: [...errors, ...all],
            updated_at: new Date(),
          })
          .where(eq(contactImports.id, job.id));
        return { imported: chunkImported, updated: chunkUpdated, skipped: chunkSkipped, notes: all };
      });
    } catch (err) {
      if (err instanceof Superseded) return;
      throw err;
    }
    imported += done.imported;
    updated += done.updated;
    skipped += done.skipped;
    errors.push(...done.notes);
  }
  await deps.db
    .update(contactImports)
    .set({ status: 'done', csv: null, updated_at: new Date() })
    .where(and(eq(contactImports.id, job.id), eq(contactImports.status, 'running')));
}

/** Runs beyond this many take-overs of one stalled import end it as failed (a file that kills its worker). */
export const MAX_IMPORT_RESUMES = 3;

/**
 * Imports left `running` by a process that died (no heartbeat, i.e. no progress and no run starting, for
 * `IMPORT_STALL_SECONDS`) are taken over: claimed in one statement (one process wins each), and worked
 * again from their last chunk by a new job; after MAX_IMPORT_RESUMES take-overs the import fails with a
 * message that says how far it got. An import whose last take-over's job still waits in the queue (a
 * busy queue, no worker free) is left alone: nobody died, and counting it would fail it for waiting.
 * Run at start and periodically by the processes that work jobs. Answers how many it took over.
 */
export async function resumeStalledImports(deps: Deps): Promise<number> {
  const stale = await deps.db.execute<{ id: number; resume_job: string | null }>(
    sql`select id, resume_job from contact_imports
      where status = 'running'
        and updated_at < now() - make_interval(secs => ${deps.config.importStallSeconds})`,
  );
  let taken = 0;
  for (const s of stale.rows) {
    // The job of the last take-over still waits to be worked (a busy queue): no worker died since.
    const state = s.resume_job ? await deps.queue.state(contactImportJob, s.resume_job) : null;
    if (state === 'created' || state === 'retry') continue;
    if (await takeOver(deps, Number(s.id), s.resume_job)) taken++;
  }
  return taken;
}

/** Claims one stalled import (one process wins) and enqueues its resume, or ends it failed. */
async function takeOver(deps: Deps, id: number, resumeJob: string | null): Promise<boolean> {
  const claimed = await deps.db.transaction(async (tx) => {
    const res = await tx.execute<{
      id: number;
      agency_id: number;
      business_id: number;
      resumes: number;
      processed: number;
      total: number;
    }>(
      sql`update contact_imports set resumes = resumes + 1, updated_at = now()
        where id = ${id} and status = 'running'
          and updated_at < now() - make_interval(secs => ${deps.config.importStallSeconds})
          and resume_job is not distinct from ${resumeJob}
        returning id, agency_id, business_id, resumes, processed, total`,
    );
    const r = res.rows[0];
    if (!r) return null;
    if (Number(r.resumes) > MAX_IMPORT_RESUMES) {
      const note = {
        line: 0,
        key: 'contacts.import_interrupted',
        params: { processed: Number(r.processed), total: Number(r.total) },
      };
      await tx.execute(
        sql`update contact_imports set status = 'failed', csv = null, updated_at = now(),
          errors = errors || ${JSON.stringify([note])}::jsonb
          where id = ${r.id} and status = 'running'`,
      );
      deps.log.warn({ importId: r.id }, 'contact import failed: interrupted too often');
      return r;
    }
    deps.log.info({ importId: r.id, processed: r.processed }, 'contact import stalled: resuming');
    const job = await deps.queue.send(tx, contactImportJob, {
      importId: Number(r.id),
      agencyId: Number(r.agency_id),
      businessId: Number(r.business_id),
    });
    await tx.execute(sql`update contact_imports set resume_job = ${job} where id = ${r.id}`);
    return r;
  });
  if (claimed) deps.queue.committed(contactImportJob.name);
  return claimed !== null;
}

/**
 * The stall check of a process that works jobs: once at start (a restarted process resumes what it was
 * doing) and every half `IMPORT_STALL_SECONDS`; the returned function stops it.
 */
export function watchImports(deps: Deps): () => Promise<unknown> {
  if (deps.config.workers !== 'inline') return async () => undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const check = () => {
    if (stopped) return;
    running = resumeStalledImports(deps).catch((err: unknown) =>
      deps.log.warn({ err }, 'stalled imports not checked'),
    );
  };
  check();
  const timer = setInterval(check, Math.max(1000, (deps.config.importStallSeconds * 1000) / 2));
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    return running;
  };
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
        await deps.db.execute(
          sql`update contact_imports set status = 'failed', csv = null, updated_at = now(),
            errors = errors || ${JSON.stringify([{ line: 0, key: 'contacts.import_failed' }])}::jsonb
            where id = ${payload.importId} and status in ('queued', 'running')`,
        );
      throw err;
    }
  },
});
