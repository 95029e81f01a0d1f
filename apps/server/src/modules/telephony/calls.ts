// The business's calls as the app shows them: the list with filters, one call with its legs, the
// recording, voicemails, scheduled calls and the calls report. A voice agent without `calls.all` sees the
// calls it claimed only; another tenant's call is not found.

import type { Readable } from 'node:stream';
import type { TListQuery } from '@stn/contracts/http';
import type {
  TCall,
  TCallDetail,
  TCallListQuery,
  TCallsReport,
  TVoiceRecord,
} from '@stn/contracts/telephony';
import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { actorCan } from '../../platform/auth/actor.ts';
import { CarrierError, RECORDING_SID_PATTERN } from '../../platform/carrier/carrier.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { installNameSql } from '../installs/service.ts';
import { carrierFor } from './access.ts';
import { callLegs, calls, voiceRecords } from './tables.ts';

type CallRow = typeof calls.$inferSelect;

// Columns of the outer row are written qualified: drizzle leaves them bare in a one-table select, where a
// subquery would read its own table's column of the same name. The install's name is the installs module's
// subquery (one query per page).
const installName = (ctx: Ctx) => installNameSql(ctx, sql`"calls"."install_id"`);
const hasVoicemail = sql<boolean>`exists (select 1 from voice_records v where v.call_id = "calls"."id")`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The calls the context may see: the business's, or only its own claims for a voice agent. */
function visible(ctx: Ctx, ...conditions: (SQL | undefined)[]): SQL | undefined {
  businessOf(ctx);
  const own =
    ctx.by.kind === 'user' && !actorCan(ctx.by.actor, 'calls.all')
      ? eq(calls.agent_user_id, ctx.by.actor.userId)
      : undefined;
  return scope(ctx, calls, own, ...conditions);
}

function present(r: CallRow & { install_name: string; has_voicemail: boolean }): TCall {
  const ttc =
    r.connected_at && r.requested_at
      ? Math.max(0, Math.round((r.connected_at.getTime() - r.requested_at.getTime()) / 1000))
      : null;
  return {
    id: r.id,
    kind: r.kind,
    outcome: r.outcome,
    install_id: r.install_id,
    install_name: r.install_name,
    visitor_phone: r.visitor_phone,
    visitor_name: r.visitor_name,
    agent_name: r.agent_name,
    agent_phone: r.agent_phone,
    agent_user_id: r.agent_user_id,
    caller_id: r.caller_id,
    requested_at: r.requested_at.toISOString(),
    scheduled_for: iso(r.scheduled_for),
    claimed_at: iso(r.claimed_at),
    connected_at: iso(r.connected_at),
    ended_at: iso(r.ended_at),
    time_to_connect: ttc,
    duration: r.duration,
    recording_url: r.recording_sid ? `/api/v1/calls/${r.id}/recording` : null,
    has_voicemail: r.has_voicemail,
  };
}

/** Dates are whole days in UTC: from the start of `from` to the end of `to`. */
function period(from?: string, to?: string): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(gte(calls.requested_at, new Date(`${from}T00:00:00Z`)));
  if (to) out.push(lt(calls.requested_at, new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000)));
  return out;
}

export async function listCalls(ctx: Ctx, q: TCallListQuery) {
  const where = visible(
    ctx,
    q.outcome ? eq(calls.outcome, q.outcome) : undefined,
    q.kind ? eq(calls.kind, q.kind) : undefined,
    q.install_id ? eq(calls.install_id, q.install_id) : undefined,
    q.keyword
      ? sql`(${calls.visitor_phone} ilike ${likePattern(q.keyword)} or ${calls.visitor_name} ilike ${likePattern(q.keyword)})`
      : undefined,
    ...period(q.from, q.to),
  );
  const { limit, offset } = pageOf(q);
  const rows = await ctx.db
    .select({ call: calls, install_name: installName(ctx), has_voicemail: hasVoicemail })
    .from(calls)
    .where(where)
    .orderBy(desc(calls.requested_at), desc(calls.id))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db.select({ n: count() }).from(calls).where(where);
  return listEnvelope(
    rows.map((r) => present({ ...r.call, install_name: r.install_name, has_voicemail: r.has_voicemail })),
    total?.n ?? 0,
    q,
  );
}

async function findCall(ctx: Ctx, id: number) {
  const [r] = await ctx.db
    .select({ call: calls, install_name: installName(ctx), has_voicemail: hasVoicemail })
    .from(calls)
    .where(visible(ctx, eq(calls.id, id)));
  return found(r);
}

export async function getCall(ctx: Ctx, input: { id: number }): Promise<TCallDetail> {
  const r = await findCall(ctx, input.id);
  const legs = await ctx.db
    .select()
    .from(callLegs)
    .where(eq(callLegs.call_id, r.call.id))
    .orderBy(asc(callLegs.id));
  return {
    ...present({ ...r.call, install_name: r.install_name, has_voicemail: r.has_voicemail }),
    legs: legs.map((l) => ({
      call_sid: l.call_sid,
      role: l.role,
      to: l.to_number,
      status: l.status,
      answered_by: l.answered_by,
      digits: l.digits,
      updated_at: l.updated_at.toISOString(),
    })),
  };
}

export type Audio = { contentType: string; body: Readable };

/** Where a recording is kept once fetched: played from there afterwards (the carrier is asked once). */
const recordingFile = (ctx: Ctx, sid: string) =>
  `recordings/${ctx.tenant.level === 'platform' ? 0 : ctx.tenant.agencyId}/${sid}.wav`;

/**
 * A recording's audio: from our file store, else streamed from the carrier into it (up to 160 MiB, never
 * whole in memory; a stream cut at the guard's limit or timed out leaves no file) and played from there.
 */
async function fetchAudio(ctx: Ctx, sidOrUrl: string): Promise<Audio> {
  if (!RECORDING_SID_PATTERN.test(sidOrUrl)) throw new AppError('NOT_FOUND', 'calls.no_recording');
  const key = recordingFile(ctx, sidOrUrl);
  const kept = await ctx.deps.storage.readStream(key);
  if (kept) return { contentType: 'audio/wav', body: kept };
  const carrier = await carrierFor(ctx);
  const audio = await carrier.fetchRecordingAudio(sidOrUrl).catch((err: unknown) => {
    if (err instanceof CarrierError) throw new AppError('NOT_FOUND', 'calls.no_recording');
    throw err;
  });
  await ctx.deps.storage.putStream(key, audio.body, 'audio/wav').catch((err: unknown) => {
    ctx.deps.log.warn({ err, recording: sidOrUrl }, 'recording not stored');
    throw new AppError('NOT_FOUND', 'calls.no_recording');
  });
  const stored = await ctx.deps.storage.readStream(key);
  if (!stored) throw new AppError('NOT_FOUND', 'calls.no_recording');
  return { contentType: 'audio/wav', body: stored };
}

/** The call's recording, fetched from the carrier (the sandbox serves its own). */
export async function callRecording(ctx: Ctx, input: { id: number }): Promise<Audio> {
  const r = await findCall(ctx, input.id);
  if (!r.call.recording_sid) throw new AppError('NOT_FOUND', 'calls.no_recording');
  return fetchAudio(ctx, r.call.recording_sid);
}

// ---------------------------------------------------------------- voice records

const voiceInstallName = (ctx: Ctx) => installNameSql(ctx, sql`"voice_records"."install_id"`);

/** Voicemails of the calls the context may see (all of them with calls.all). */
function visibleVoice(ctx: Ctx, ...conditions: (SQL | undefined)[]): SQL | undefined {
  businessOf(ctx);
  const own =
    ctx.by.kind === 'user' && !actorCan(ctx.by.actor, 'calls.all')
      ? sql`"voice_records"."call_id" in (select c.id from calls c where c.agent_user_id = ${ctx.by.actor.userId})`
      : undefined;
  return scope(ctx, voiceRecords, own, ...conditions);
}

const presentVoice = (r: typeof voiceRecords.$inferSelect & { install_name: string }): TVoiceRecord => ({
  id: r.id,
  call_id: r.call_id,
  install_name: r.install_name,
  from: r.from_number,
  duration: r.duration,
  recording_url: `/api/v1/voice-records/${r.id}/audio`,
  created_at: r.created_at.toISOString(),
});

export async function listVoiceRecords(ctx: Ctx, q: TListQuery) {
  const where = visibleVoice(
    ctx,
    q.keyword ? sql`${voiceRecords.from_number} ilike ${likePattern(q.keyword)}` : undefined,
  );
  const { limit, offset } = pageOf(q);
  const rows = await ctx.db
    .select({ v: voiceRecords, install_name: voiceInstallName(ctx) })
    .from(voiceRecords)
    .where(where)
    .orderBy(desc(voiceRecords.created_at), desc(voiceRecords.id))
    .limit(limit)
    .offset(offset);
  const [total] = await ctx.db.select({ n: count() }).from(voiceRecords).where(where);
  return listEnvelope(
    rows.map((r) => presentVoice({ ...r.v, install_name: r.install_name })),
    total?.n ?? 0,
    q,
  );
}

async function findVoice(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select()
    .from(voiceRecords)
    .where(visibleVoice(ctx, eq(voiceRecords.id, id)));
  return found(row);
}

export async function voiceRecordAudio(ctx: Ctx, input: { id: number }): Promise<Audio> {
  const v = await findVoice(ctx, input.id);
  return fetchAudio(ctx, v.recording_sid);
}

export async function deleteVoiceRecord(ctx: Ctx, input: { id: number }): Promise<void> {
  const v = await findVoice(ctx, input.id);
  const gone = await ctx.db
    .delete(voiceRecords)
    .where(eq(voiceRecords.id, v.id))
    .returning({ id: voiceRecords.id });
  if (gone.length === 0) throw notFound();
}

// ---------------------------------------------------------------- scheduled calls

export async function listScheduledCalls(ctx: Ctx, q: TListQuery) {
  return listCalls(ctx, { ...q, kind: 'scheduled', outcome: 'scheduled' } as TCallListQuery);
}

// ---------------------------------------------------------------- report

const seconds = sql`extract(epoch from (${calls.connected_at} - ${calls.requested_at}))`;
const median = sql<
  number | null
>`percentile_cont(0.5) within group (order by ${seconds}) filter (where ${calls.connected_at} is not null)`;

export async function callsReport(
  ctx: Ctx,
  q: { from?: string | undefined; to?: string | undefined; install_id?: number | undefined },
): Promise<TCallsReport> {
  const where = visible(
    ctx,
    sql`${calls.outcome} not in ('scheduled', 'canceled')`,
    q.install_id ? eq(calls.install_id, q.install_id) : undefined,
    ...period(q.from, q.to),
  );
  const [totals] = await ctx.db
    .select({
      requested: count(),
      completed: sql<number>`count(*) filter (where ${calls.outcome} = 'completed')::int`,
      missed: sql<number>`count(*) filter (where ${calls.outcome} = 'missed')::int`,
      no_answer: sql<number>`count(*) filter (where ${calls.outcome} = 'no_answer')::int`,
      median,
    })
    .from(calls)
    .where(where);
  const agents = await ctx.db
    .select({
      agent_name: sql<string>`coalesce(${calls.agent_name}, '')`,
      agent_phone: sql<string>`coalesce(${calls.agent_phone}, '')`,
      claimed: count(),
      completed: sql<number>`count(*) filter (where ${calls.outcome} = 'completed')::int`,
      talk_seconds: sql<number>`coalesce(sum(${calls.duration}), 0)::int`,
      median,
    })
    .from(calls)
    .where(and(where, sql`${calls.claimed_at} is not null`))
    .groupBy(sql`coalesce(${calls.agent_name}, '')`, sql`coalesce(${calls.agent_phone}, '')`)
    .orderBy(desc(count()));
  const outcomes = await ctx.db
    .select({ outcome: calls.outcome, count: count() })
    .from(calls)
    .where(where)
    .groupBy(calls.outcome)
    .orderBy(calls.outcome);
  const round = (v: number | string | null | undefined) =>
    v == null ? null : Math.round(Number(v) * 10) / 10;
  return {
    totals: {
      requested: totals?.requested ?? 0,
      completed: Number(totals?.completed ?? 0),
      missed: Number(totals?.missed ?? 0),
      no_answer: Number(totals?.no_answer ?? 0),
      median_time_to_connect: round(totals?.median),
    },
    by_agent: agents.map((a) => ({
      agent_name: a.agent_name,
      agent_phone: a.agent_phone,
      claimed: a.claimed,
      completed: Number(a.completed),
      talk_seconds: Number(a.talk_seconds),
      median_time_to_connect: round(a.median),
    })),
    by_outcome: outcomes.map((o) => ({ outcome: o.outcome, count: o.count })),
  };
}
