import { describe, expect, it } from 'vitest';
import {
  addBlock,
  connect,
  emptyDraft,
  layoutIfStacked,
  problemsFromErrors,
  problemsOf,
  removeBlock,
  requestOf,
  setConfig,
  TRIGGER_NODE,
} from './graph.ts';

// The editor's model: blocks picked one after another join into a flow, a Condition's second branch goes
// beside its first, a deleted block leaves no output pointing at it, and the check shows what activation
// would refuse.

function built() {
  let d = { ...emptyDraft(), name: 'Missed call follow-up' };
  const step = (kind: Parameters<typeof addBlock>[1], after: string | null) => {
    const made = addBlock(d, kind, after);
    d = made.draft;
    return made.id;
  };
  const wait = step('Wait', TRIGGER_NODE);
  const text = step('SendMessage', wait);
  const cond = step('Condition', text);
  const tag = step('AddTag', cond);
  const hook = step('Webhook', cond);
  return { d, ids: { wait, text, cond, tag, hook } };
}

describe('the automation editor model', () => {
  it('joins each new block to the free output of the one picked before it', () => {
    const { d, ids } = built();
    expect(Object.values(ids)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    expect(d.trigger.start).toBe('b1');
    expect(d.blocks.find((b) => b.id === 'b1')?.outputs).toEqual({ next: 'b2' });
    expect(d.blocks.find((b) => b.id === 'b3')?.outputs).toEqual({ yes: 'b4', no: 'b5' });
    const yes = d.blocks.find((b) => b.id === 'b4')?.position;
    const no = d.blocks.find((b) => b.id === 'b5')?.position;
    expect(no && yes && no.x > yes.x).toBe(true);
  });

  it('activation problems sit on their blocks, and go once fixed', () => {
    let { d } = built();
    const on = (id: string) => problemsOf(d).filter((p) => p.block_id === id);
    expect(on('b2').map((p) => p.message)).toEqual(['automations.message_required']);
    expect(on('b4').map((p) => p.message)).toEqual(['automations.tags_required']);
    expect(on('b5').map((p) => p.message)).toEqual(['automations.url_invalid']);
    d = setConfig(d, 'b2', 'body', 'Sorry we missed you, {first_name}!');
    d = setConfig(d, 'b4', 'add', [7]);
    d = setConfig(d, 'b5', 'url', 'https://example.com/hook');
    expect(problemsOf(d)).toEqual([]);
    expect(problemsOf({ ...d, name: ' ' }).map((p) => p.field)).toEqual(['name']);
  });

  it('a removed block leaves its inputs ending the journey, and what it led to unreachable', () => {
    const { d } = built();
    const without = removeBlock(d, 'b3');
    expect(without.blocks.find((b) => b.id === 'b2')?.outputs).toEqual({ next: null });
    const problems = problemsOf(without);
    expect(problems.filter((p) => p.message === 'automations.unreachable').map((p) => p.block_id)).toEqual([
      'b4',
      'b5',
    ]);
    expect(removeBlock(d, 'b1').trigger.start).toBeNull();
  });

  it('a loop is a problem; an output reconnected ends it', () => {
    const { d } = built();
    const loop = connect(d, 'b4', 'next', 'b1');
    expect(problemsOf(loop).some((p) => p.message === 'automations.loop')).toBe(true);
    expect(problemsOf(connect(loop, 'b4', 'next', null)).some((p) => p.message === 'automations.loop')).toBe(
      false,
    );
  });

  it("a server's 422 fields become problems on blocks, by id or by index", () => {
    const { d } = built();
    const problems = problemsFromErrors(
      {
        'blocks.b2.config.body': ['Write a message.'],
        'blocks.3.config.add': ['Pick a tag.'],
        'trigger.config.keywords': ['Add a keyword.'],
        name: ['The name is required.'],
      },
      d.blocks,
    );
    expect(problems).toEqual([
      { block_id: 'b2', field: 'body', message: 'Write a message.' },
      { block_id: 'b4', field: 'add', message: 'Pick a tag.' },
      { block_id: null, field: 'keywords', message: 'Add a keyword.' },
      { block_id: null, field: 'name', message: 'The name is required.' },
    ]);
  });

  it('the request carries the draft as it is, active or not', () => {
    const { d } = built();
    const r = requestOf({ ...d, webhook_token: 'x'.repeat(20) }, true);
    expect(r.active).toBe(true);
    expect(r.blocks).toHaveLength(5);
    expect(r.options).toEqual({ reentry: 'after_finish' });
    expect(r.webhook_token).toBe('x'.repeat(20));
  });

  it('an automation made without the editor, its nodes stacked at 0,0, is laid out in rows', () => {
    const { d } = built();
    const origin = { x: 0, y: 0 };
    const laid = layoutIfStacked(
      { ...d.trigger, position: origin },
      d.blocks.map((b) => ({ ...b, position: origin })),
    );
    const pos = (id: string) => laid.blocks.find((b) => b.id === id)?.position;
    expect(laid.trigger.position).toEqual({ x: 40, y: 40 });
    expect([pos('b1')?.y, pos('b2')?.y, pos('b3')?.y]).toEqual([180, 320, 460]);
    // The Condition's two branches side by side on the next row.
    expect(pos('b4')?.y).toBe(600);
    expect(pos('b5')).toEqual({ x: (pos('b4')?.x ?? 0) + 260, y: 600 });
    // Positions already apart are kept.
    expect(layoutIfStacked(d.trigger, d.blocks).blocks).toBe(d.blocks);
  });
});
