import {
  ACTION_OUTPUTS,
  AUTOMATION_DEFAULTS,
  checkAutomation,
  type TActionKind,
  type TAutomation,
  type TAutomationProblem,
  type TAutomationRequest,
  type TBlock,
  type TReentry,
  type TTrigger,
  type TTriggerKind,
} from '@stn/contracts/automations';

// The editor's model: an automation being edited, as plain data, and the pure changes the canvas, the
// palette and the side panel make to it. React Flow's nodes and edges are drawn from it (canvas.tsx), never
// the other way round, so what is saved is exactly what is shown.

export type Draft = {
  name: string;
  trigger: TTrigger;
  blocks: TBlock[];
  reentry: TReentry;
  installs: number[];
  tags: number[];
  /** The webhook triggers' fresh token (GET /new-webhook) a new automation keeps. */
  webhook_token?: string;
};

/** The trigger's node id on the canvas (a block id is never this: blocks are b1, b2...). */
export const TRIGGER_NODE = 'trigger';

/** A new block's configuration: the contracts' defaults, the required fields left empty for the user. */
export function defaultConfig(kind: TActionKind): Record<string, unknown> {
  switch (kind) {
    case 'SendMessage':
      return { body: '', template_id: null, media_ids: [] };
    case 'SendCall':
      return { mode: 'say', text: '', media_id: null, language: 'en' };
    case 'SendVoiceMail':
      return {
        mode: 'say',
        text: '',
        media_id: null,
        language: 'en',
        at: AUTOMATION_DEFAULTS.voicemail.at,
        time_zone: AUTOMATION_DEFAULTS.voicemail.time_zone,
      };
    case 'SendEmail':
      return { subject: '', body: '' };
    case 'AddTag':
      return { add: [], remove: [] };
    case 'Webhook':
      return { url: '', headers: {} };
    case 'Alert':
      return { channels: ['email'], user_ids: [], message: '' };
    case 'Wait':
      return { ...AUTOMATION_DEFAULTS.wait };
    case 'ProcessBetween':
      return { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5], time_zone: null };
    case 'Condition':
      return { kind: 'replied', tag_id: null, field: null, value: '', outcome: null, within: null };
    case 'AddToAutomation':
      return {};
    case 'CollectContactData':
      return { question: '', field: 'first_name', wait: { amount: 1, unit: 'days' } };
  }
}

/** A trigger kind's configuration when it is picked. */
export function defaultTriggerConfig(kind: TTriggerKind): Record<string, unknown> {
  switch (kind) {
    case 'birthday':
    case 'anniversary':
      return { hour: 9 };
    case 'date':
      return { at: '' };
    case 'sms-keyword':
      return { keywords: [], match: 'exact' };
    case 'webhook':
      return {
        mapping: { phone: 'phone', first_name: 'first_name', last_name: 'last_name', email: 'email' },
      };
    default:
      return {};
  }
}

export function emptyDraft(): Draft {
  return {
    name: '',
    trigger: { kind: 'missed-call', config: {}, start: null, position: { x: 40, y: 160 } },
    blocks: [],
    reentry: 'after_finish',
    installs: [],
    tags: [],
  };
}

export function draftOf(a: TAutomation): Draft {
  const laid = layoutIfStacked(a.trigger, a.blocks);
  return {
    name: a.name,
    trigger: laid.trigger,
    blocks: laid.blocks,
    reentry: a.options.reentry,
    installs: a.installs,
    tags: a.tags,
  };
}

export function requestOf(d: Draft, active: boolean): TAutomationRequest {
  return {
    name: d.name,
    trigger: d.trigger,
    blocks: d.blocks,
    options: { reentry: d.reentry },
    installs: d.installs,
    tags: d.tags,
    active,
    ...(d.webhook_token ? { webhook_token: d.webhook_token } : {}),
  };
}

const ROW = 140;
const COLUMN = 260;

/**
 * An automation made without the editor (through the API, a template, the demo) may have its nodes on top
 * of each other (every position defaults to 0,0): then it is laid out in rows by distance from the trigger,
 * the branches of a row side by side, blocks nothing reaches in a last row. Positions set apart are kept.
 */
export function layoutIfStacked(
  trigger: TTrigger,
  blocks: TBlock[],
): { trigger: TTrigger; blocks: TBlock[] } {
  const seen = new Set<string>();
  const stacked = [trigger.position, ...blocks.map((b) => b.position)].some((p) => {
    const key = `${p.x},${p.y}`;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  if (!stacked) return { trigger, blocks };
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const rowOf = new Map<string, number>();
  let row = trigger.start && byId.has(trigger.start) ? [trigger.start] : [];
  for (let depth = 1; row.length > 0; depth++) {
    const next: string[] = [];
    for (const id of row) {
      if (rowOf.has(id)) continue;
      rowOf.set(id, depth);
      for (const to of Object.values(byId.get(id)?.outputs ?? {}))
        if (to && byId.has(to) && !rowOf.has(to)) next.push(to);
    }
    row = next;
  }
  const last = Math.max(0, ...rowOf.values()) + 1;
  const placed = new Map<number, number>();
  const at = (depth: number) => {
    const i = placed.get(depth) ?? 0;
    placed.set(depth, i + 1);
    return { x: 40 + i * COLUMN, y: 40 + depth * ROW };
  };
  return {
    trigger: { ...trigger, position: { x: 40, y: 40 } },
    blocks: blocks.map((b) => ({ ...b, position: at(rowOf.get(b.id) ?? last) })),
  };
}

/** The next free block id: b1, b2... (short, stable, and what the browser tests name). */
export function nextBlockId(blocks: readonly TBlock[]): string {
  const used = blocks.map((b) => Number(/^b(\d+)$/.exec(b.id)?.[1] ?? 0));
  return `b${Math.max(0, ...used) + 1}`;
}

/** The first output of a node that leads nowhere yet (the trigger's `start`), or null. */
export function freeOutput(d: Draft, nodeId: string | null): string | null {
  if (nodeId === TRIGGER_NODE) return d.trigger.start === null ? 'start' : null;
  const b = d.blocks.find((x) => x.id === nodeId);
  if (!b) return null;
  return ACTION_OUTPUTS[b.type].find((o) => !b.outputs[o]) ?? null;
}

/**
 * Adds a block of `kind` below `after` (a node id, or the last block), and when `after` has an output
 * leading nowhere, connects it to the new block: a flow is built by picking kinds one after another.
 */
export function addBlock(d: Draft, kind: TActionKind, after: string | null): { draft: Draft; id: string } {
  const id = nextBlockId(d.blocks);
  const anchorId = after ?? d.blocks.at(-1)?.id ?? TRIGGER_NODE;
  const anchor =
    anchorId === TRIGGER_NODE
      ? d.trigger.position
      : (d.blocks.find((b) => b.id === anchorId)?.position ?? null);
  const base = anchor ?? { x: 40, y: 40 };
  const output = freeOutput(d, anchorId);
  // A second branch of a Condition goes to the right of the first.
  const shift =
    anchorId !== TRIGGER_NODE && output && ACTION_OUTPUTS[kindOf(d, anchorId)].indexOf(output) > 0;
  const block: TBlock = {
    id,
    type: kind,
    config: defaultConfig(kind),
    outputs: Object.fromEntries(ACTION_OUTPUTS[kind].map((o) => [o, null])),
    position: { x: base.x + (shift ? COLUMN : 0), y: base.y + ROW },
  };
  let next: Draft = { ...d, blocks: [...d.blocks, block] };
  if (output) next = connect(next, anchorId, output, id);
  return { draft: next, id };
}

function kindOf(d: Draft, id: string): TActionKind {
  return d.blocks.find((b) => b.id === id)?.type ?? 'Wait';
}

/** Points `output` of node `from` (the trigger's `start`) at block `to` (null: the journey ends there). */
export function connect(d: Draft, from: string, output: string, to: string | null): Draft {
  if (from === TRIGGER_NODE) return { ...d, trigger: { ...d.trigger, start: to } };
  return {
    ...d,
    blocks: d.blocks.map((b) => (b.id === from ? { ...b, outputs: { ...b.outputs, [output]: to } } : b)),
  };
}

/** Removes a block and every output leading to it (those outputs then end the journey). */
export function removeBlock(d: Draft, id: string): Draft {
  return {
    ...d,
    trigger: d.trigger.start === id ? { ...d.trigger, start: null } : d.trigger,
    blocks: d.blocks
      .filter((b) => b.id !== id)
      .map((b) => ({
        ...b,
        outputs: Object.fromEntries(Object.entries(b.outputs).map(([o, t]) => [o, t === id ? null : t])),
      })),
  };
}

export function updateBlock(d: Draft, id: string, change: Partial<TBlock>): Draft {
  return { ...d, blocks: d.blocks.map((b) => (b.id === id ? { ...b, ...change } : b)) };
}

export function setConfig(d: Draft, id: string, key: string, value: unknown): Draft {
  return {
    ...d,
    blocks: d.blocks.map((b) => (b.id === id ? { ...b, config: { ...b.config, [key]: value } } : b)),
  };
}

export function moveNode(d: Draft, id: string, position: { x: number; y: number }): Draft {
  if (id === TRIGGER_NODE) return { ...d, trigger: { ...d.trigger, position } };
  return updateBlock(d, id, { position });
}

/** The problems before activation: the contracts' check, plus the name the request needs. */
export function problemsOf(d: Draft): TAutomationProblem[] {
  const problems = checkAutomation({ trigger: d.trigger, blocks: d.blocks });
  if (!d.name.trim())
    problems.unshift({ block_id: null, field: 'name', message: 'automations.name_required' });
  return problems;
}

/**
 * A refused save's 422 `errors` as problems on blocks: a field `blocks.<id>.<field>` (or `blocks.<index>...`,
 * zod's path) belongs to that block, `trigger...` to the trigger, anything else to the whole automation.
 */
export function problemsFromErrors(
  errors: Record<string, string[]>,
  blocks: readonly TBlock[],
): TAutomationProblem[] {
  const out: TAutomationProblem[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    const parts = key.split('.');
    let blockId: string | null = null;
    let field: string | null = key;
    if (parts[0] === 'blocks' && parts[1] !== undefined) {
      const byId = blocks.find((b) => b.id === parts[1]);
      const byIndex = /^\d+$/.test(parts[1]) ? blocks[Number(parts[1])] : undefined;
      const block = byId ?? byIndex;
      if (block) {
        blockId = block.id;
        const rest = parts.slice(2);
        if (rest[0] === 'config') rest.shift();
        field = rest.length ? rest.join('.') : null;
      }
    } else if (parts[0] === 'trigger') {
      const rest = parts.slice(1);
      if (rest[0] === 'config') rest.shift();
      field = rest.length ? rest.join('.') : null;
    }
    for (const message of messages) out.push({ block_id: blockId, field, message });
  }
  return out;
}

/** The problems of one node (the trigger's: no block, and a field other than the name). */
export function problemsAt(problems: readonly TAutomationProblem[], nodeId: string): TAutomationProblem[] {
  if (nodeId === TRIGGER_NODE)
    return problems.filter((p) => p.block_id === null && p.field !== 'name' && p.field !== null);
  return problems.filter((p) => p.block_id === nodeId);
}
