import { ZMessageMedia } from './chats.ts';
import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';
import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Automations: a business's marketing journeys (spec 000 §2 business `automation` routes, §3 Automation,
// §9 defaults; spec 001 "Automations" and the contacts' automation calls). An automation is a trigger and
// a graph of action blocks; the engine runs one journey (a run) per contact entry. ADRs 067 to 071.

// ---------------------------------------------------------------- kinds and defaults

export const TRIGGER_KINDS = [
  'direct-call',
  'birthday',
  'anniversary',
  'date',
  'missed-call',
  'completed-call',
  'sms-keyword',
  'new-tag',
  'home-advisor',
  'webhook',
] as const;
export type TTriggerKind = (typeof TRIGGER_KINDS)[number];

export const ACTION_KINDS = [
  'SendMessage',
  'SendCall',
  'SendVoiceMail',
  'SendEmail',
  'AddTag',
  'Webhook',
  'Alert',
  'Wait',
  'ProcessBetween',
  'Condition',
  'AddToAutomation',
  'CollectContactData',
] as const;
export type TActionKind = (typeof ACTION_KINDS)[number];

/** Spec §9: a Wait is 1 second unless set; a voicemail drop goes at 09:00 America/Los_Angeles. */
export const AUTOMATION_DEFAULTS = {
  wait: { amount: 1, unit: 'seconds' },
  voicemail: { at: '09:00', time_zone: 'America/Los_Angeles' },
} as const;

export const WAIT_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type TWaitUnit = (typeof WAIT_UNITS)[number];
export const WAIT_UNIT_SECONDS: Record<TWaitUnit, number> = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86_400,
};
/** The longest a Wait (or a CollectContactData's wait for the answer) may be: a year. */
export const WAIT_MAX_SECONDS = 366 * 86_400;
export function waitSeconds(w: { amount: number; unit: TWaitUnit }): number {
  return w.amount * WAIT_UNIT_SECONDS[w.unit];
}

/** Whether a contact may enter an automation again (`options.reentry`). */
export const REENTRY_RULES = ['never', 'after_finish', 'always'] as const;
export type TReentry = (typeof REENTRY_RULES)[number];

/** The contact fields a CollectContactData may fill and a Condition may test (besides custom field keys). */
export const AUTOMATION_CONTACT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'birthday',
  'anniversary',
] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const zTime = () => z.string().regex(TIME, 'automations.time_invalid');
const zId = () => z.number().int().positive();
/** A contact field: a standard one or a custom field's key. */
const zField = () =>
  z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, 'automations.field_invalid');
const zWait = () =>
  z
    .object({
      amount: z.number().int('automations.wait_invalid').min(1, 'automations.wait_invalid'),
      unit: z.enum(WAIT_UNITS),
    })
    .refine((w) => waitSeconds(w) <= WAIT_MAX_SECONDS, { message: 'automations.wait_too_long' });

// ---------------------------------------------------------------- block configurations

/** A text with merge fields (`{first_name}`, templates' syntax), a template, or images: one is needed. */
export const ZSendMessageConfig = z
  .object({
    body: z.string().max(1600).default(''),
    template_id: zId().nullable().default(null),
    /** Media-library ids (templates module). */
    media_ids: z.array(zId()).max(10).default([]),
  })
  .refine((c) => c.body.trim() !== '' || c.template_id !== null || c.media_ids.length > 0, {
    message: 'automations.message_required',
    path: ['body'],
  });

/** What a call says: `text` (text-to-speech, in `language`) or a recording (a media id). */
const callContent = {
  mode: z.enum(['say', 'recording']).default('say'),
  text: z.string().max(1000).default(''),
  media_id: zId().nullable().default(null),
  /** The voice's language for `say`. */
  language: z.enum(['en', 'es', 'br']).default('en'),
};
const hasCallContent = (c: { mode: 'say' | 'recording'; text: string; media_id: number | null }) =>
  c.mode === 'say' ? c.text.trim() !== '' : c.media_id !== null;
const callContentRequired = { message: 'automations.call_content_required', path: ['text'] };

/** A call to the contact that says `text` (text-to-speech) or plays a recording (a media id). */
export const ZSendCallConfig = z.object(callContent).refine(hasCallContent, callContentRequired);

/** A voicemail drop: at `at` (HH:MM) in `time_zone`, the next such time after the block is reached. */
export const ZSendVoiceMailConfig = z
  .object({
    ...callContent,
    at: zTime().default(AUTOMATION_DEFAULTS.voicemail.at),
    time_zone: z.string().trim().min(1).max(64).default(AUTOMATION_DEFAULTS.voicemail.time_zone),
  })
  .refine(hasCallContent, callContentRequired);

export const ZSendEmailConfig = z.object({
  subject: z.string().trim().min(1, 'automations.subject_required').max(191),
  body: z.string().trim().min(1, 'automations.email_body_required').max(20_000),
});

/** Adds and removes tags of the contact (at least one of the two). */
export const ZAddTagConfig = z
  .object({
    add: z.array(zId()).max(20).default([]),
    remove: z.array(zId()).max(20).default([]),
  })
  .refine((c) => c.add.length + c.remove.length > 0, { message: 'automations.tags_required', path: ['add'] });

/** An outbound POST of the contact as JSON (through the platform's URL guard). */
export const ZWebhookConfig = z.object({
  url: z
    .string()
    .trim()
    .max(2000)
    .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), 'automations.url_invalid'),
  /** Extra request headers (an API key of the receiver). */
  headers: z.record(z.string().max(100), z.string().max(1000)).default({}),
});

export const ALERT_CHANNELS = ['email', 'sms', 'push', 'task'] as const;
/** Tells staff: `user_ids` (none: the business's admins) by each channel, with a message (merge fields). */
export const ZAlertConfig = z.object({
  channels: z.array(z.enum(ALERT_CHANNELS)).min(1, 'automations.channels_required'),
  user_ids: z.array(zId()).max(50).default([]),
  message: z.string().trim().min(1, 'automations.alert_message_required').max(1000),
});

export const ZWaitConfig = z
  .object({
    amount: z
      .number()
      .int('automations.wait_invalid')
      .min(1, 'automations.wait_invalid')
      .default(AUTOMATION_DEFAULTS.wait.amount),
    unit: z.enum(WAIT_UNITS).default(AUTOMATION_DEFAULTS.wait.unit),
  })
  .refine((w) => waitSeconds(w) <= WAIT_MAX_SECONDS, {
    message: 'automations.wait_too_long',
    path: ['amount'],
  });

/**
 * Goes on only between `from` and `to` (HH:MM, `to` after `from`) on `days` (0 Sunday … 6 Saturday) in
 * `time_zone` (null: the business's); outside, the journey waits for the next opening.
 */
export const ZProcessBetweenConfig = z
  .object({
    from: zTime().default('09:00'),
    to: zTime().default('17:00'),
    days: z
      .array(z.number().int().min(0).max(6))
      .min(1, 'automations.days_required')
      .default([1, 2, 3, 4, 5]),
    time_zone: z.string().trim().min(1).max(64).nullable().default(null),
  })
  .refine((c) => c.from < c.to, { message: 'automations.window_invalid', path: ['to'] });

export const CONDITION_KINDS = ['tag', 'field_equals', 'field_contains', 'replied', 'call_outcome'] as const;
export const CALL_OUTCOMES = ['completed', 'missed'] as const;
/**
 * Branches yes or no: the contact has tag `tag_id`; field `field` equals or contains `value` (case
 * ignored); the contact replied since the run started (waiting up to `within` for the reply); the run's call
 * (its trigger's, or the last SendCall's) ended with `outcome`.
 */
export const ZConditionConfig = z
  .object({
    kind: z.enum(CONDITION_KINDS),
    tag_id: zId().nullable().default(null),
    field: zField().nullable().default(null),
    value: z.string().max(500).default(''),
    outcome: z.enum(CALL_OUTCOMES).nullable().default(null),
    /**
     * For `replied`: how long to wait for a reply before deciding (a reply decides yes at once); null: decide
     * now, on what was received since the journey started.
     */
    within: zWait().nullable().default(null),
  })
  .superRefine((c, ctx) => {
    if (c.kind === 'tag' && c.tag_id === null)
      ctx.addIssue({ code: 'custom', message: 'automations.tag_required', path: ['tag_id'] });
    if ((c.kind === 'field_equals' || c.kind === 'field_contains') && c.field === null)
      ctx.addIssue({ code: 'custom', message: 'automations.field_required', path: ['field'] });
    if (c.kind === 'call_outcome' && c.outcome === null)
      ctx.addIssue({ code: 'custom', message: 'automations.outcome_required', path: ['outcome'] });
  });

/** Hands the contact to another automation of the business (this journey then ends). */
export const ZAddToAutomationConfig = z.object({
  automation_id: z
    .number({ message: 'automations.automation_required' })
    .int()
    .positive('automations.automation_required'),
});

/**
 * Texts `question`, waits up to `wait` for the contact's answer and stores it in `field`; output
 * `answered` or `no_answer`.
 */
export const ZCollectContactDataConfig = z.object({
  question: z.string().trim().min(1, 'automations.question_required').max(1600),
  field: zField(),
  wait: zWait().default({ amount: 1, unit: 'days' }),
});

export const ACTION_CONFIGS = {
  SendMessage: ZSendMessageConfig,
  SendCall: ZSendCallConfig,
  SendVoiceMail: ZSendVoiceMailConfig,
  SendEmail: ZSendEmailConfig,
  AddTag: ZAddTagConfig,
  Webhook: ZWebhookConfig,
  Alert: ZAlertConfig,
  Wait: ZWaitConfig,
  ProcessBetween: ZProcessBetweenConfig,
  Condition: ZConditionConfig,
  AddToAutomation: ZAddToAutomationConfig,
  CollectContactData: ZCollectContactDataConfig,
} as const satisfies Record<TActionKind, z.ZodType>;
export type TActionConfig<K extends TActionKind> = z.infer<(typeof ACTION_CONFIGS)[K]>;

/** The outputs of each block kind (the handles of the editor): most go on to `next`. */
export const ACTION_OUTPUTS: Record<TActionKind, readonly string[]> = {
  SendMessage: ['next'],
  SendCall: ['next'],
  SendVoiceMail: ['next'],
  SendEmail: ['next'],
  AddTag: ['next'],
  Webhook: ['next'],
  Alert: ['next'],
  Wait: ['next'],
  ProcessBetween: ['next'],
  Condition: ['yes', 'no'],
  AddToAutomation: [],
  CollectContactData: ['answered', 'no_answer'],
};

// ---------------------------------------------------------------- trigger configurations

/** The contact fields an inbound webhook's values may be mapped to (plus custom field keys). */
export const WEBHOOK_CONTACT_FIELDS = [
  'phone',
  'first_name',
  'last_name',
  'email',
  'birthday',
  'anniversary',
] as const;

export const TRIGGER_CONFIGS = {
  'direct-call': z.object({}),
  /** Every day at `hour` (0-23) in the business's time zone, contacts whose birthday is today enter. */
  birthday: z.object({ hour: z.number().int().min(0).max(23).default(9) }),
  anniversary: z.object({ hour: z.number().int().min(0).max(23).default(9) }),
  /** At `at` (ISO with offset), the contacts with any of the automation's tags (none: all) enter. */
  date: z.object({ at: z.string().datetime({ offset: true, message: 'automations.date_invalid' }) }),
  /** Calls on the automation's installs (none: any install). */
  'missed-call': z.object({}),
  'completed-call': z.object({}),
  /** An inbound text on the automation's installs (none: any) matching a keyword (case ignored). */
  'sms-keyword': z.object({
    keywords: z.array(z.string().trim().min(1).max(50)).min(1, 'automations.keywords_required').max(20),
    match: z.enum(['exact', 'contains']).default('exact'),
  }),
  /** The contact got one of the automation's tags. */
  'new-tag': z.object({}),
  /** A HomeAdvisor lead posted to the automation's unique URL. */
  'home-advisor': z.object({}),
  /**
   * JSON or form fields posted to the automation's unique URL: `mapping` names, per contact field, the
   * posted field (a dotted path for JSON) it comes from. `phone` is required.
   */
  webhook: z.object({
    mapping: z
      .record(z.string(), z.string().trim().max(200))
      .default({ phone: 'phone', first_name: 'first_name', last_name: 'last_name', email: 'email' }),
  }),
} as const satisfies Record<TTriggerKind, z.ZodType>;
export type TTriggerConfig<K extends TTriggerKind> = z.infer<(typeof TRIGGER_CONFIGS)[K]>;

// ---------------------------------------------------------------- the automation graph

/** Where a block sits on the editor's canvas. */
export const ZPosition = z.object({ x: z.number(), y: z.number() });

/**
 * One action block: its kind, configuration, and where each of its outputs leads (a block id; null:
 * the journey ends there).
 */
export const ZBlock = z.object({
  id: z.string().trim().min(1).max(40),
  type: z.enum(ACTION_KINDS),
  config: z.record(z.string(), z.unknown()).default({}),
  outputs: z.record(z.string(), z.string().max(40).nullable()).default({}),
  position: ZPosition.default({ x: 0, y: 0 }),
});
export type TBlock = z.infer<typeof ZBlock>;

export const ZTrigger = z.object({
  kind: z.enum(TRIGGER_KINDS),
  config: z.record(z.string(), z.unknown()).default({}),
  /** The first block (null: none yet). */
  start: z.string().max(40).nullable().default(null),
  position: ZPosition.default({ x: 0, y: 0 }),
});
export type TTrigger = z.infer<typeof ZTrigger>;

export const ZAutomationOptions = z.object({
  reentry: z.enum(REENTRY_RULES).default('after_finish'),
});
export type TAutomationOptions = z.infer<typeof ZAutomationOptions>;

/** A problem the check finds: the block (null: the trigger or the whole), the field, a text key. */
export const ZAutomationProblem = z.object({
  block_id: z.string().nullable(),
  field: z.string().nullable(),
  message: z.string(),
});
export type TAutomationProblem = z.infer<typeof ZAutomationProblem>;

function configProblems(blockId: string | null, schema: z.ZodType, config: unknown): TAutomationProblem[] {
  const r = schema.safeParse(config);
  if (r.success) return [];
  return r.error.issues.map((i) => ({
    block_id: blockId,
    field: i.path.length ? i.path.map(String).join('.') : null,
    message: i.message.startsWith('automations.') ? i.message : 'automations.field_invalid',
  }));
}

/**
 * The check before an automation can be active (the editor shows the same): the trigger's and each
 * block's required fields, the first block set, no output leading to a missing block (a dangling
 * branch), no block the trigger cannot reach, no loop, unique block ids. An output left empty ends the
 * journey there, which is allowed. Empty answer: it may be activated.
 */
export function checkAutomation(a: { trigger: TTrigger; blocks: TBlock[] }): TAutomationProblem[] {
  const problems: TAutomationProblem[] = [];
  problems.push(...configProblems(null, TRIGGER_CONFIGS[a.trigger.kind], a.trigger.config));
  const byId = new Map<string, TBlock>();
  for (const b of a.blocks) {
    if (byId.has(b.id))
      problems.push({ block_id: b.id, field: null, message: 'automations.block_duplicate' });
    byId.set(b.id, b);
    problems.push(...configProblems(b.id, ACTION_CONFIGS[b.type], b.config));
    for (const [out, target] of Object.entries(b.outputs)) {
      if (!ACTION_OUTPUTS[b.type].includes(out))
        problems.push({ block_id: b.id, field: `outputs.${out}`, message: 'automations.output_unknown' });
      else if (target !== null && !a.blocks.some((x) => x.id === target))
        problems.push({ block_id: b.id, field: `outputs.${out}`, message: 'automations.branch_dangling' });
    }
  }
  if (a.blocks.length === 0 || a.trigger.start === null) {
    problems.push({ block_id: null, field: 'start', message: 'automations.no_blocks' });
    return problems;
  }
  if (!byId.has(a.trigger.start)) {
    problems.push({ block_id: null, field: 'start', message: 'automations.branch_dangling' });
    return problems;
  }
  // Reachability and loops: a depth-first walk from the first block.
  const state = new Map<string, 'open' | 'done'>();
  const loops = new Set<string>();
  const walk = (id: string) => {
    state.set(id, 'open');
    const b = byId.get(id);
    for (const target of Object.values(b?.outputs ?? {})) {
      if (target === null || !byId.has(target)) continue;
      const s = state.get(target);
      if (s === 'open') loops.add(id);
      else if (!s) walk(target);
    }
    state.set(id, 'done');
  };
  walk(a.trigger.start);
  for (const id of loops) problems.push({ block_id: id, field: null, message: 'automations.loop' });
  for (const b of a.blocks)
    if (!state.has(b.id)) problems.push({ block_id: b.id, field: null, message: 'automations.unreachable' });
  return problems;
}

// ---------------------------------------------------------------- the API

export const ZAutomation = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The trigger's kind (spec's `start_trigger`). */
  start_trigger: z.enum(TRIGGER_KINDS),
  trigger: ZTrigger,
  active: z.boolean(),
  blocks: z.array(ZBlock),
  options: ZAutomationOptions,
  /** Installs the trigger listens on (calls, keywords; none: all). */
  installs: z.array(z.number().int()),
  /** Tags of the trigger (new-tag: any of them; date: contacts with any of them). */
  tags: z.array(z.number().int()),
  /** The unique inbound URL (webhook and home-advisor triggers), else null. */
  webhook_url: z.string().nullable(),
  /** The token of the share link (`/business/automation/{token}/share`). */
  share_token: z.string(),
  /** Runs: in progress and all-time. */
  runs: z.object({ active: z.number().int(), total: z.number().int() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TAutomation = z.infer<typeof ZAutomation>;

/**
 * Create or update. `active: true` asks for activation: the check must find nothing and the plan's
 * Automations limit must leave room, else 422 and nothing is saved. A draft may be saved incomplete.
 */
export const ZAutomationRequest = z.object({
  name: z.string().trim().min(1, 'automations.name_required').max(191),
  trigger: ZTrigger,
  blocks: z.array(ZBlock).max(200).default([]),
  options: ZAutomationOptions.default({ reentry: 'after_finish' }),
  installs: z.array(zId()).max(100).default([]),
  tags: z.array(zId()).max(100).default([]),
  active: z.boolean().default(false),
  /** For the webhook triggers: the token from GET /new-webhook (else a fresh one). */
  webhook_token: z.string().trim().min(16).max(64).optional(),
});
export type TAutomationRequest = z.infer<typeof ZAutomationRequest>;

export const ZAutomationListQuery = ZListQuery.extend({
  search: z.string().trim().max(200).optional(),
  status: z.enum(['active', 'inactive']).optional(),
  trigger: z.enum(TRIGGER_KINDS).optional(),
});
export type TAutomationListQuery = z.infer<typeof ZAutomationListQuery>;

export const ZAutomationList = listOf(ZAutomation);
export const ZAutomationResponse = itemAnswerOf(ZAutomation);
/** GET /all: id and name of each (pickers: AddToAutomation, the contacts' automation calls). */
export const ZAutomationRef = z.object({ id: z.number().int(), name: z.string(), active: z.boolean() });
export const ZAutomationAll = allItemsOf(ZAutomationRef);

/** PUT /{id}/toggle: active or not (activation runs the check and the limit). */
export const ZAutomationToggle = z.object({ active: z.boolean() });

/** A template of the gallery: an automation of a template business of the agency (or the platform's). */
export const ZAutomationTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  start_trigger: z.enum(TRIGGER_KINDS),
  /** The kinds of its blocks, in order, for the gallery's card. */
  block_kinds: z.array(z.enum(ACTION_KINDS)),
  share_token: z.string(),
});
export const ZAutomationTemplates = allItemsOf(ZAutomationTemplate);

/**
 * GET /shared/{token}: what the share page shows before importing (ADR 070): the automation's name, its
 * trigger, its blocks' kinds, and the business that shared it. Nothing else of the other business.
 */
export const ZAutomationSharePreview = z.object({
  name: z.string(),
  start_trigger: z.enum(TRIGGER_KINDS),
  block_kinds: z.array(z.enum(ACTION_KINDS)),
  business_name: z.string(),
});
export const ZAutomationSharePreviewResponse = itemAnswerOf(ZAutomationSharePreview);
/** The share token in a path (POST /{token}/clone, GET /shared/{token}). */
export const ZShareTokenParams = z.object({ id: z.string().trim().min(16).max(64) });

/** GET /new-webhook and /{id}/unique-id: the token and the URL the trigger listens on. */
export const ZAutomationWebhook = z.object({ token: z.string(), url: z.string() });
export const ZAutomationWebhookResponse = itemAnswerOf(ZAutomationWebhook);

/** POST /test-sms: a SendMessage's text, filled for a sample contact, to one phone now. */
export const ZAutomationTestSms = z.object({
  phone: zPhone(),
  body: z.string().max(1600).default(''),
  template_id: zId().nullable().default(null),
  media_ids: z.array(zId()).max(10).default([]),
});
/** POST /test-email: a SendEmail's message to one address now. */
export const ZAutomationTestEmail = z.object({
  email: z.email('automations.email_invalid'),
  subject: z.string().trim().min(1, 'automations.subject_required').max(191),
  body: z.string().trim().min(1, 'automations.email_body_required').max(20_000),
});

// ---------------------------------------------------------------- runs (journeys)

export const RUN_STATUSES = ['active', 'waiting', 'completed', 'stopped', 'failed'] as const;
export type TRunStatus = (typeof RUN_STATUSES)[number];
export const STEP_STATUSES = ['pending', 'running', 'waiting', 'done', 'failed', 'skipped'] as const;

/** One step of a journey: a block reached, what it did (`detail`), which output it took. */
export const ZRunStep = z.object({
  seq: z.number().int(),
  block_id: z.string(),
  type: z.enum(ACTION_KINDS),
  status: z.enum(STEP_STATUSES),
  output: z.string().nullable(),
  /** What happened, for people (a message id, the webhook's answer code, the wake time...). */
  detail: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  attempts: z.number().int(),
  due_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TRunStep = z.infer<typeof ZRunStep>;

export const ZRun = z.object({
  id: z.number().int(),
  automation_id: z.number().int(),
  automation_name: z.string(),
  contact_id: z.number().int(),
  contact_name: z.string(),
  contact_phone: z.string(),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(TRIGGER_KINDS),
  /** The block it is at (null: finished). */
  current_block: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  steps: z.array(ZRunStep),
});
export type TRun = z.infer<typeof ZRun>;

export const ZRunListQuery = ZListQuery.extend({
  status: z.enum(RUN_STATUSES).optional(),
  block_id: z.string().max(40).optional(),
});
export const ZRunList = listOf(ZRun.omit({ steps: true }));
export const ZRunResponse = itemAnswerOf(ZRun);
/** GET /v1/automations/{id}/blocks: contacts at each block now, and how many passed it. */
export const ZBlockCounts = z.object({
  data: z.array(z.object({ block_id: z.string(), at: z.number().int(), passed: z.number().int() })),
});

/** A SendMessage's media as stored (the media library's file). */
export const ZAutomationMedia = ZMessageMedia;
