// The seam between the engine (engine.ts: runs, steps, claiming, retries) and the actions (one file per
// block kind under actions/): ADR 068. The engine claims a due step, builds a StepInput and calls the
// block's executor; the executor does the block's effect and says what comes next. Effects written to our
// own database use `ctx` (the step's transaction), so they commit with the step's completion exactly once.
// An effect outside (a carrier call, an HTTP POST, an e-mail) carries `step.key`, the step's idempotency
// key, wherever the receiver accepts one, and is recorded in `detail`.
import type { TActionKind, TBlock } from '@stn/contracts/automations';
import type { Ctx } from '../../../platform/tenancy/context.ts';

/** The contact as the actions see it (merge fields, conditions). */
export type RunContact = {
  id: number;
  phone: string;
  first_name: string;
  last_name: string;
  name: string;
  email: string | null;
  birthday: string | null;
  anniversary: string | null;
  fields: Record<string, string>;
  tag_ids: number[];
  install_id: number | null;
  opted_out: boolean;
  blocked: boolean;
};

export type StepInput = {
  /** A business context (system actor "automation"), in the step's transaction. */
  ctx: Ctx;
  automation: { id: number; name: string; business_id: number; agency_id: number };
  run: {
    id: number;
    trigger: string;
    trigger_data: Record<string, unknown>;
    vars: Record<string, unknown>;
    started_at: Date;
  };
  contact: RunContact;
  block: TBlock;
  /** The block's configuration, parsed by its contracts schema (defaults applied). */
  config: unknown;
  step: {
    id: number;
    seq: number;
    /** `automation-step-<run id>-<seq>`: the same on every attempt of this step. */
    key: string;
    /** 1 on the first attempt. */
    attempt: number;
    /** What the step recorded before (a waiting step woken up: its `detail`). */
    detail: Record<string, unknown>;
    /** Why it was woken: due (its time came), answer (an inbound text for CollectContactData). */
    wake: 'due' | 'answer';
    /** The answer's text, when woken by one. */
    answer?: string;
  };
  /** The engine's clock (the sandbox's manual clock in tests). */
  now: Date;
};

export type StepResult =
  /** Done: go on by `output` (default 'next'); `vars` are merged into the run's. */
  | { kind: 'next'; output?: string; detail?: Record<string, unknown>; vars?: Record<string, unknown> }
  /**
   * Not yet: the step is woken at `until` (a Wait, a window, a voicemail time) and called again with its
   * `detail`; with `answer: true` an inbound text from the contact wakes it earlier (CollectContactData).
   */
  | { kind: 'wait'; until: Date; answer?: boolean; detail?: Record<string, unknown> }
  /** The journey goes on in another automation (AddToAutomation): this run ends completed. */
  | { kind: 'handoff'; detail?: Record<string, unknown> }
  /**
   * Failed: `retry` asks for another attempt after `retryAfterMs` (a 5xx, a timeout) while attempts
   * are left; else the step is failed and the run goes on by 'next' when `continueRun`, else fails.
   */
  | {
      kind: 'fail';
      error: string;
      retry?: boolean;
      retryAfterMs?: number;
      continueRun?: boolean;
      detail?: Record<string, unknown>;
    };

export type ActionExecutor = (input: StepInput) => Promise<StepResult>;
export type ActionRegistry = Record<TActionKind, ActionExecutor>;
