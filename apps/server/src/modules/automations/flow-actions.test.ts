// The flow blocks (ADR 068) through the engine, on the engine's (the sandbox's) clock: Wait, ProcessBetween,
// Condition, AddToAutomation and CollectContactData, with the sandbox carrier and phones for texts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ACTIONS } from './actions/index.ts';
import { nextLocalTime, nextOpening } from './actions/time.ts';
import {
  type AutomationsTest,
  addAutomation,
  addContacts,
  addTag,
  automationsApp,
  block,
  chain,
  enter,
  expect,
  installWithNumber,
  moveClock,
  runOf,
  stepsOf,
  untilRun,
} from './test-support.ts';

let h: AutomationsTest;
let install: { id: number; phone: string };
beforeAll(async () => {
  h = await automationsApp();
  install = await installWithNumber(h);
});
afterAll(() => h?.close());

const DAY = 86_400_000;
/** Moves the clock to the next `weekday` (0 Sunday) at `hh:mm` UTC. */
async function clockTo(weekday: number, hh: number, mm = 0) {
  const now = h.clock.now();
  const d = new Date(now);
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hh, mm);
  let days = (weekday - d.getUTCDay() + 7) % 7;
  if (days === 0 && target <= now) days = 7;
  await moveClock(h, target + days * DAY - now);
}
const park = (id: string) => block(id, 'Wait', { amount: 1, unit: 'days' });

describe('Wait', () => {
  it('waits 1 second by default (spec §9), minutes, hours and days as set', async () => {
    const id = await addAutomation(h, {
      blocks: chain(block('w0', 'Wait'), block('w1', 'Wait', { amount: 3, unit: 'days' })),
    });
    const [c] = await addContacts(h, { count: 1, first: 1 });
    const [run] = (await enter(h, id, [c as number])) as [number];
    await untilRun(h, run, 'waiting', 'w0');
    const t0 = h.clock.now();
    expect((await stepsOf(h, run))[0]?.due_at.getTime()).toBe(t0 + 1000);
    await moveClock(h, 1000);
    await untilRun(h, run, 'waiting', 'w1');
    expect((await stepsOf(h, run))[1]?.due_at.getTime()).toBe(t0 + 1000 + 3 * DAY);
    await moveClock(h, 3 * DAY - 1);
    expect((await runOf(h, run)).current_block).toBe('w1');
    await moveClock(h, 1);
    await untilRun(h, run, 'completed');
  });
});

describe('ProcessBetween', () => {
  it('finds the next opening of a window in a zone', () => {
    const w = { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5] };
    // Monday 2026-01-05.
    expect(nextOpening(new Date('2026-01-05T10:00:00Z'), w, 'UTC').toISOString()).toBe(
      '2026-01-05T10:00:00.000Z',
    );
    expect(nextOpening(new Date('2026-01-05T08:30:00Z'), w, 'UTC').toISOString()).toBe(
      '2026-01-05T09:00:00.000Z',
    );
    expect(nextOpening(new Date('2026-01-09T17:00:00Z'), w, 'UTC').toISOString()).toBe(
      '2026-01-12T09:00:00.000Z',
    );
    expect(nextOpening(new Date('2026-01-05T10:00:00Z'), w, 'America/New_York').toISOString()).toBe(
      '2026-01-05T14:00:00.000Z',
    );
    // Across the spring DST change in New York (Sunday 2026-03-08): Monday 09:00 EDT is 13:00 UTC.
    expect(nextOpening(new Date('2026-03-07T12:00:00Z'), w, 'America/New_York').toISOString()).toBe(
      '2026-03-09T13:00:00.000Z',
    );
    expect(
      nextLocalTime(new Date('2026-01-05T18:00:00Z'), '09:00', 'America/Los_Angeles').toISOString(),
    ).toBe('2026-01-06T17:00:00.000Z');
  });

  it('goes on at once inside the window, else waits for the next opening (in the business zone by default)', async () => {
    const inside = await addAutomation(h, {
      blocks: chain(
        block('pb', 'ProcessBetween', { from: '09:00', to: '17:00', time_zone: 'UTC' }),
        park('p'),
      ),
    });
    const outside = await addAutomation(h, {
      blocks: chain(block('pb', 'ProcessBetween', { from: '09:00', to: '17:00' }), park('p')),
    });
    await h.q(
      `update businesses set settings = settings || '{"timezone": "America/New_York"}' where id = $1`,
      [h.seed.a.business.id],
    );
    const [c1, c2, c3] = await addContacts(h, { count: 3, first: 10 });
    // Monday 10:00 UTC: open in UTC, 05:00 in New York.
    await clockTo(1, 10);
    const monday10 = h.clock.now();
    const [r1] = (await enter(h, inside, [c1 as number])) as [number];
    await untilRun(h, r1, 'waiting', 'p');
    const [r2] = (await enter(h, outside, [c2 as number])) as [number];
    await untilRun(h, r2, 'waiting', 'pb');
    const [s] = await stepsOf(h, r2);
    expect(s?.due_at.getTime()).toBe(monday10 + 4 * 3_600_000);
    expect(s?.detail).toMatchObject({ time_zone: 'America/New_York' });
    await moveClock(h, 4 * 3_600_000);
    await untilRun(h, r2, 'waiting', 'p');
    // Friday 18:00 UTC on weekdays in UTC: Monday 09:00.
    const weekdays = await addAutomation(h, {
      blocks: chain(
        block('pb', 'ProcessBetween', { from: '09:00', to: '17:00', time_zone: 'UTC' }),
        park('p'),
      ),
    });
    await clockTo(5, 18);
    const friday = h.clock.now();
    const [r3] = (await enter(h, weekdays, [c3 as number])) as [number];
    await untilRun(h, r3, 'waiting', 'pb');
    expect((await stepsOf(h, r3))[0]?.due_at.getTime()).toBe(friday + 2 * DAY + 15 * 3_600_000);
    await h.q(`update businesses set settings = settings - 'timezone' where id = $1`, [h.seed.a.business.id]);
  });
});

describe('Condition', () => {
  const branches = (config: Record<string, unknown>) => [
    block('c', 'Condition', config, { yes: 'y', no: 'n' }),
    park('y'),
    park('n'),
  ];
  async function outcome(automationId: number, contactId: number, data?: Record<string, unknown>) {
    const [run] = (await enter(
      h,
      automationId,
      [{ contactId, entryKey: `c-${Math.random()}`, ...(data ? { data } : {}) }],
      data ? 'missed-call' : 'direct-call',
    )) as [number];
    await expect.poll(async () => (await runOf(h, run)).status).toBe('waiting');
    return (await runOf(h, run)).current_block;
  }

  it('branches on a tag', async () => {
    const t = await addTag(h, 'VIP');
    const [tagged] = await addContacts(h, { count: 1, first: 20, tagId: t });
    const [plain] = await addContacts(h, { count: 1, first: 21 });
    const id = await addAutomation(h, { blocks: branches({ kind: 'tag', tag_id: t }) });
    expect(await outcome(id, tagged as number)).toBe('y');
    expect(await outcome(id, plain as number)).toBe('n');
  });

  it('branches on a field equal to or containing a value, case ignored (standard and custom fields)', async () => {
    const [c] = await addContacts(h, { count: 1, first: 22 });
    await h.q(
      `update contacts set email = 'Ann@Example.com', fields = '{"plan": "Gold Plus"}' where id = $1`,
      [c],
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'field_equals', field: 'email', value: 'ann@example.COM' }, 'y'],
      [{ kind: 'field_equals', field: 'plan', value: 'gold' }, 'n'],
      [{ kind: 'field_contains', field: 'plan', value: 'GOLD' }, 'y'],
      [{ kind: 'field_contains', field: 'first_name', value: 'bob' }, 'n'],
      [{ kind: 'field_equals', field: 'unknown_key', value: '' }, 'y'],
    ];
    for (const [config, want] of cases) {
      const id = await addAutomation(h, { blocks: branches(config) });
      expect(await outcome(id, c as number), JSON.stringify(config)).toBe(want);
    }
  });

  it('branches on the call outcome of the trigger', async () => {
    const [c1, c2, c3] = await addContacts(h, { count: 3, first: 23, prefix: '+1415703' });
    const missed = await addAutomation(h, { blocks: branches({ kind: 'call_outcome', outcome: 'missed' }) });
    expect(await outcome(missed, c1 as number, { call_id: 1 })).toBe('y');
    const completed = await addAutomation(h, {
      blocks: branches({ kind: 'call_outcome', outcome: 'completed' }),
    });
    expect(await outcome(completed, c2 as number, { call_id: 2 })).toBe('n');
    expect(await outcome(completed, c3 as number, { call_outcome: 'completed' })).toBe('y');
  });

  it('branches on a reply of the contact since the journey started', async () => {
    const [c] = await addContacts(h, { count: 1, first: 24, installId: install.id, prefix: '+1415701' });
    const [phone] = await h.q<{ phone: string }>('select phone from contacts where id = $1', [c]);
    const id = await addAutomation(h, {
      blocks: [
        block('w', 'Wait', { amount: 1, unit: 'hours' }, { next: 'c' }),
        block('c', 'Condition', { kind: 'replied' }, { yes: 'y', no: 'n' }),
        park('y'),
        park('n'),
      ],
      options: { reentry: 'always' },
    });
    const [quiet] = (await enter(h, id, [{ contactId: c as number, entryKey: 'quiet' }])) as [number];
    await untilRun(h, quiet, 'waiting', 'w');
    await moveClock(h, 3_600_000);
    await untilRun(h, quiet, 'waiting', 'n');
    await h.q("update automation_runs set status = 'stopped' where id = $1", [quiet]);
    const [talks] = (await enter(h, id, [{ contactId: c as number, entryKey: 'talks' }])) as [number];
    await untilRun(h, talks, 'waiting', 'w');
    h.sandbox.phones.sendText(phone?.phone ?? '', install.phone, 'Yes please');
    await h.run();
    await expect
      .poll(
        async () =>
          (await h.q('select id from messages where contact_id = $1 and direction = $2', [c, 'in'])).length,
      )
      .toBe(1);
    await moveClock(h, 3_600_000);
    await untilRun(h, talks, 'waiting', 'y');
  });
});

describe('Condition waiting for a reply', () => {
  it('waits up to `within`: a reply decides yes at once, none in time decides no', async () => {
    const [a, b] = await addContacts(h, { count: 2, first: 60, installId: install.id, prefix: '+1415702' });
    const phones = await h.q<{ id: number; phone: string }>(
      'select id, phone from contacts where id = any($1)',
      [[a, b]],
    );
    const phoneOf = (id: number | undefined) => phones.find((p) => p.id === id)?.phone ?? '';
    const id = await addAutomation(h, {
      blocks: [
        block(
          'c',
          'Condition',
          { kind: 'replied', within: { amount: 1, unit: 'days' } },
          { yes: 'y', no: 'n' },
        ),
        park('y'),
        park('n'),
      ],
    });
    const [replies, silent] = (await enter(h, id, [
      { contactId: a as number, entryKey: 'r' },
      { contactId: b as number, entryKey: 's' },
    ])) as [number, number];
    await untilRun(h, replies, 'waiting', 'c');
    await untilRun(h, silent, 'waiting', 'c');
    // An hour later one of them replies: that journey goes on by yes without waiting the day out.
    await moveClock(h, 3_600_000);
    expect((await runOf(h, replies)).current_block).toBe('c');
    h.sandbox.phones.sendText(phoneOf(a), install.phone, 'Sounds good');
    await h.run();
    await untilRun(h, replies, 'waiting', 'y');
    expect((await runOf(h, silent)).current_block).toBe('c');
    // The other says nothing: at the end of the day, no.
    await moveClock(h, 23 * 3_600_000);
    await untilRun(h, silent, 'waiting', 'n');
    expect((await stepsOf(h, silent))[0]).toMatchObject({ status: 'done', output: 'no' });
    expect((await stepsOf(h, replies))[0]).toMatchObject({ status: 'done', output: 'yes' });
  });
});

describe('AddToAutomation', () => {
  it('hands the contact to the other automation once and ends this journey', async () => {
    const target = await addAutomation(h, { name: 'Target', blocks: [park('t')] });
    const inactive = await addAutomation(h, { name: 'Off', blocks: [park('t')], active: false });
    const id = await addAutomation(h, { blocks: [block('a', 'AddToAutomation', { automation_id: target })] });
    const off = await addAutomation(h, {
      blocks: [block('a', 'AddToAutomation', { automation_id: inactive })],
    });
    const [c] = await addContacts(h, { count: 1, first: 30 });
    const [run] = (await enter(h, id, [c as number])) as [number];
    await untilRun(h, run, 'completed', null);
    const [step] = await stepsOf(h, run);
    await expect
      .poll(
        async () =>
          (
            await h.q('select id from automation_runs where automation_id = $1 and status = $2', [
              target,
              'waiting',
            ])
          ).length,
      )
      .toBe(1);
    expect(step).toMatchObject({
      status: 'done',
      output: 'handoff',
      detail: { automation_id: target, entered: true },
    });
    const handed = await h.q<{ entry_key: string; status: string; trigger_data: Record<string, unknown> }>(
      'select entry_key, status, trigger_data from automation_runs where automation_id = $1',
      [target],
    );
    expect(handed).toEqual([
      {
        entry_key: `handoff-${run}`,
        status: 'waiting',
        trigger_data: { from_automation: id, from_run: run },
      },
    ]);
    const [r2] = (await enter(h, off, [c as number])) as [number];
    await untilRun(h, r2, 'completed', null);
    expect((await stepsOf(h, r2))[0]?.detail).toMatchObject({ entered: false });
  });
});

describe('CollectContactData', () => {
  async function contactWithPhone(first: number) {
    const [c] = await addContacts(h, { count: 1, first, installId: install.id, prefix: '+1415702' });
    const [row] = await h.q<{ phone: string }>('select phone from contacts where id = $1', [c]);
    return { id: c as number, phone: row?.phone ?? '' };
  }
  const collect = (field: string) => [
    block(
      'q',
      'CollectContactData',
      { question: 'What is your e-mail?', field, wait: { amount: 2, unit: 'hours' } },
      { answered: 'yes', no_answer: 'no' },
    ),
    park('yes'),
    park('no'),
  ];

  it('asks by text, stores the answer in the field and goes on by answered', async () => {
    const c = await contactWithPhone(40);
    const id = await addAutomation(h, { blocks: collect('email') });
    const [run] = (await enter(h, id, [c.id])) as [number];
    await untilRun(h, run, 'waiting', 'q');
    const asked = h.sandbox.sentMessages({ from: install.phone, to: c.phone });
    expect(asked.map((m) => m.body)).toEqual(['What is your e-mail?']);
    h.sandbox.phones.sendText(c.phone, install.phone, '  ann@example.com ');
    await h.run();
    await untilRun(h, run, 'waiting', 'yes');
    const [row] = await h.q<{ email: string }>('select email from contacts where id = $1', [c.id]);
    expect(row?.email).toBe('ann@example.com');
    expect((await stepsOf(h, run))[0]).toMatchObject({
      status: 'done',
      output: 'answered',
      detail: { answer: 'ann@example.com', stored: true },
    });
    expect((await runOf(h, run)).vars).toEqual({ email: 'ann@example.com' });
  });

  it('a worker dying after the carrier took the question: the retry does not ask again, and waits', async () => {
    const c = await contactWithPhone(45);
    const real = ACTIONS.CollectContactData;
    // The first attempt asks, then its transaction is lost (as when the process dies before the commit).
    ACTIONS.CollectContactData = async (input) => {
      const result = await real(input);
      if (input.step.attempt === 1) throw new Error('worker died');
      return result;
    };
    let run = 0;
    try {
      const id = await addAutomation(h, { blocks: collect('email') });
      [run] = (await enter(h, id, [c.id])) as [number];
      await expect
        .poll(async () => (await stepsOf(h, run))[0]?.error ?? null, { timeout: 15_000, interval: 20 })
        .not.toBeNull();
      await moveClock(h, 60_000);
      await untilRun(h, run, 'waiting', 'q');
      expect((await stepsOf(h, run))[0]?.detail).toMatchObject({ recovered: true });
      const asked = h.sandbox.sentMessages({ from: install.phone, to: c.phone });
      expect(asked.map((m) => m.body)).toEqual(['What is your e-mail?']);
    } finally {
      ACTIONS.CollectContactData = real;
    }
    // The answer still goes on by answered.
    h.sandbox.phones.sendText(c.phone, install.phone, 'dee@example.com');
    await h.run();
    await untilRun(h, run, 'waiting', 'yes');
    const [row] = await h.q<{ email: string }>('select email from contacts where id = $1', [c.id]);
    expect(row?.email).toBe('dee@example.com');
  });

  it('stores a custom field, and goes on by no_answer when nobody answers in time', async () => {
    const c = await contactWithPhone(41);
    const id = await addAutomation(h, { blocks: collect('favourite_colour') });
    const [run] = (await enter(h, id, [c.id])) as [number];
    await untilRun(h, run, 'waiting', 'q');
    await moveClock(h, 2 * 3_600_000);
    await untilRun(h, run, 'waiting', 'no');
    expect((await stepsOf(h, run))[0]).toMatchObject({ status: 'done', output: 'no_answer' });
    // A late answer changes nothing.
    h.sandbox.phones.sendText(c.phone, install.phone, 'blue');
    await h.run();
    const again = await addAutomation(h, { blocks: collect('favourite_colour') });
    const [r2] = (await enter(h, again, [c.id])) as [number];
    await untilRun(h, r2, 'waiting', 'q');
    h.sandbox.phones.sendText(c.phone, install.phone, 'Green');
    await h.run();
    await untilRun(h, r2, 'waiting', 'yes');
    const [row] = await h.q<{ fields: Record<string, string> }>('select fields from contacts where id = $1', [
      c.id,
    ]);
    expect(row?.fields).toEqual({ favourite_colour: 'Green' });
    expect((await runOf(h, run)).current_block).toBe('no');
  });

  it('stores a date answer in a date field, and keeps one that is no date only in the run', async () => {
    const c1 = await contactWithPhone(43);
    const c2 = await contactWithPhone(44);
    const id = await addAutomation(h, { blocks: collect('birthday') });
    const [r1, r2] = (await enter(h, id, [c1.id, c2.id])) as [number, number];
    await untilRun(h, r1, 'waiting', 'q');
    await untilRun(h, r2, 'waiting', 'q');
    h.sandbox.phones.sendText(c1.phone, install.phone, '3/15/1990');
    h.sandbox.phones.sendText(c2.phone, install.phone, 'in spring');
    await h.run();
    await untilRun(h, r1, 'waiting', 'yes');
    await untilRun(h, r2, 'waiting', 'yes');
    const rows = await h.q<{ id: number; birthday: string | null }>(
      "select id, to_char(birthday, 'YYYY-MM-DD') as birthday from contacts where id = any($1) order by id",
      [[c1.id, c2.id]],
    );
    expect(rows).toEqual([
      { id: c1.id, birthday: '1990-03-15' },
      { id: c2.id, birthday: null },
    ]);
    const d2 = (await stepsOf(h, r2))[0]?.detail;
    expect(d2, JSON.stringify(d2)).toMatchObject({ answer: 'in spring', stored: false });
    expect((await runOf(h, r2)).vars).toEqual({ birthday: 'in spring' });
  });

  it('goes on by no_answer at once when the question cannot be sent', async () => {
    const c = await contactWithPhone(42);
    await h.q('update contacts set opted_out_at = now() where id = $1', [c.id]);
    const id = await addAutomation(h, { blocks: collect('email') });
    const [run] = (await enter(h, id, [c.id])) as [number];
    await untilRun(h, run, 'waiting', 'no');
    expect((await stepsOf(h, run))[0]?.detail).toMatchObject({ error: 'messages.opted_out' });
  });
});
