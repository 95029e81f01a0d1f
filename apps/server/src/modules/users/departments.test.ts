import { beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  expect422,
  expectCrossTenant404,
  rows,
  snapshot,
  touched,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/departments';
const TABLES = ['departments', 'department_agents', 'audit_logs'];
let smsAgent: { id: number; email: string };
let voiceAgent: { id: number; email: string };

beforeAll(async () => {
  await c.t.pool.query('update businesses set dep_enabled = true');
  smsAgent = await addBusinessUser(c.t, c.seed.a.business.id, 'sms@a.test', '3');
  voiceAgent = await addBusinessUser(c.t, c.seed.a.business.id, 'voice@a.test', '3');
});

const admin = () => c.token(c.seed.a.businessAdmin.email);
const agentsOf = async (departmentId: number) =>
  (
    await rows(
      c.t,
      'select user_id, channel, agency_id, business_id from department_agents where department_id = $1 order by channel, user_id',
      [departmentId],
    )
  ).map((r) => ({ ...r }));

async function createDep(name: string, sms: number[] = [], voice: number[] = [], active = true) {
  const res = await c.api.post(await admin(), base, { name, active, sms_agents: sms, voice_agents: voice });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number };
}

describe('creating and editing departments', () => {
  it('creates a department with its sms and voice agents', async () => {
    const res = await c.api.post(await admin(), base, {
      name: 'Sales',
      sms_agents: [smsAgent.id],
      voice_agents: [voiceAgent.id, smsAgent.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(res.json().message).toBe('Department created successfully.');
    expect(data).toMatchObject({ name: 'Sales', active: true });
    expect(data.sms_agents.map((u: { id: number }) => u.id)).toEqual([smsAgent.id]);
    const [row] = await rows(c.t, 'select * from departments where id = $1', [data.id]);
    expect(row).toMatchObject({
      name: 'Sales',
      business_id: c.seed.a.business.id,
      agency_id: c.seed.a.agency.id,
    });
    const b = { agency_id: c.seed.a.agency.id, business_id: c.seed.a.business.id };
    expect(await agentsOf(data.id)).toEqual([
      { user_id: smsAgent.id, channel: 'sms', ...b },
      { user_id: smsAgent.id, channel: 'voice', ...b },
      { user_id: voiceAgent.id, channel: 'voice', ...b },
    ]);
  });

  it("refuses another business's user as agent, a blank or taken name (422, nothing saved)", async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(token, base, { name: 'Support', sms_agents: [smsAgent.id, c.seed.b.businessUser.id] }),
      'sms_agents',
      'Each agent must be a user of this business.',
    );
    expect422(
      await c.api.post(token, base, { name: 'Support', voice_agents: [c.seed.a.agencyAdmin.id] }),
      'voice_agents',
      'Each agent must be a user of this business.',
    );
    expect422(await c.api.post(token, base, { name: '  ' }), 'name', 'The name field is required');
    expect422(
      await c.api.post(token, base, { name: 'sales' }),
      'name',
      'A department with this name already exists.',
    );
    expect422(
      await c.api.post(token, base, { name: 'X', sms_agents: ['a'] }),
      'sms_agents.0',
      'The sms agents must be an integer.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('enforces max_departments when the business has one', async () => {
    const [{ n }] = await rows(c.t, 'select count(*)::int as n from departments where business_id = $1', [
      c.seed.a.business.id,
    ]);
    await c.t.pool.query(
      `update businesses set settings = jsonb_build_object('max_departments', $2::int) where id = $1`,
      [c.seed.a.business.id, n],
    );
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(await admin(), base, { name: 'One too many' }),
      'name',
      n === 1
        ? 'This business can have at most 1 department.'
        : `This business can have at most ${n} departments.`,
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    await c.t.pool.query(`update businesses set settings = '{}' where id = $1`, [c.seed.a.business.id]);
  });

  it('updates name, active and replaces the agent lists; bad agents change nothing', async () => {
    const dep = await createDep('Billing', [smsAgent.id], [voiceAgent.id]);
    const res = await c.api.put(await admin(), `${base}/${dep.id}`, {
      name: 'Accounts',
      active: false,
      sms_agents: [voiceAgent.id],
      voice_agents: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Department updated successfully.');
    const [row] = await rows(c.t, 'select name, active from departments where id = $1', [dep.id]);
    expect(row).toEqual({ name: 'Accounts', active: false });
    expect((await agentsOf(dep.id)).map((a) => [a.user_id, a.channel])).toEqual([[voiceAgent.id, 'sms']]);

    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.put(await admin(), `${base}/${dep.id}`, {
        name: 'Accounts',
        sms_agents: [c.seed.b.businessAdmin.id],
      }),
      'sms_agents',
      'Each agent must be a user of this business.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('toggles active', async () => {
    const dep = await createDep('Toggle me');
    const off = await c.api.put(await admin(), `${base}/${dep.id}/toggle-active`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Department deactivated.', data: { active: false } });
    expect((await rows(c.t, 'select active from departments where id = $1', [dep.id]))[0].active).toBe(false);
    const on = await c.api.put(await admin(), `${base}/${dep.id}/toggle-active`, { active: true });
    expect(on.json().message).toBe('Department activated.');
    expect((await rows(c.t, 'select active from departments where id = $1', [dep.id]))[0].active).toBe(true);
    expect422(
      await c.api.put(await admin(), `${base}/${dep.id}/toggle-active`, {}),
      'active',
      'The active field is required',
    );
  });

  it('deletes a department, its agent rows and audits it', async () => {
    const dep = await createDep('Delete me', [smsAgent.id]);
    const res = await c.api.del(await admin(), `${base}/${dep.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Department deleted successfully.' });
    expect(await rows(c.t, 'select id from departments where id = $1', [dep.id])).toEqual([]);
    expect(await agentsOf(dep.id)).toEqual([]);
    expect(await rows(c.t, "select * from audit_logs where action = 'department.delete'")).toHaveLength(1);
  });
});

describe('reading departments', () => {
  it('lists with keyword and status, 10 per page', async () => {
    const token = await admin();
    const all = (await c.api.get(token, base)).json();
    const [{ n }] = await rows(c.t, 'select count(*)::int as n from departments where business_id = $1', [
      c.seed.a.business.id,
    ]);
    expect(all.meta).toEqual({ total: n, page: 1, perPage: 10 });
    const kw = (await c.api.get(token, `${base}?keyword=sal`)).json();
    expect(kw.data.map((d: { name: string }) => d.name)).toEqual(['Sales']);
    const inactive = (await c.api.get(token, `${base}?status=inactive`)).json();
    expect(inactive.data.map((d: { name: string }) => d.name)).toEqual(['Accounts']);
    const one = await c.api.get(token, `${base}/${kw.data[0].id}`);
    expect(one.json().data).toMatchObject({ name: 'Sales', active: true });
  });

  it('gives sms and voice departments (active, with agents) and sms agents to any business user', async () => {
    const silent = await createDep('No agents');
    const sales = await c.token(c.seed.a.businessUser.email);
    const names = async (path: string) =>
      (await c.api.get(sales, `${base}/${path}`)).json().data.map((d: { name: string }) => d.name);
    expect(await names('all')).toEqual(expect.arrayContaining(['Sales', 'Accounts', 'No agents']));
    // Accounts has an sms agent but is inactive.
    expect(await names('sms-departments')).toEqual(['Sales']);
    expect(await names('voice-departments')).toEqual(['Sales']);
    const id = (await rows(c.t, "select id from departments where name = 'Sales'"))[0].id;
    const agents = await c.api.get(sales, `${base}/${id}/sms-agents`);
    expect(agents.statusCode, agents.body).toBe(200);
    expect(agents.json().data.map((u: { email: string }) => u.email)).toEqual(['sms@a.test']);
    expect((await c.api.get(sales, `${base}/${silent.id}/sms-agents`)).json().data).toEqual([]);
    // The other business sees none of them.
    const other = await c.api.get(await c.token(c.seed.b.businessAdmin.email), `${base}/all`);
    expect(other.json().data).toEqual([]);
  });

  it('answers 404 to another business on every by-id call', async () => {
    const id = (await rows(c.t, "select id from departments where name = 'Sales'"))[0].id;
    const token = await touched(c, c.seed.b.businessAdmin.email);
    // The controls are the same calls on business B's own departments, made harmless: an empty body
    // (422), or deleting a department made for it.
    const mine = async (name: string) => {
      const res = await c.api.post(token, base, { name });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const own = await mine('B desk');
    const spare = await mine('B spare');
    for (const [method, url, payload, control] of [
      ['GET', `${base}/${id}`, undefined, { url: `${base}/${own}` }],
      ['GET', `${base}/${id}/sms-agents`, undefined, { url: `${base}/${own}/sms-agents` }],
      ['PUT', `${base}/${id}`, { name: 'Hacked' }, { url: `${base}/${own}`, payload: {} }],
      [
        'PUT',
        `${base}/${id}/toggle-active`,
        { active: false },
        { url: `${base}/${own}/toggle-active`, payload: {} },
      ],
      ['DELETE', `${base}/${id}`, undefined, { url: `${base}/${spare}` }],
    ] as const) {
      await expectCrossTenant404(c.t, { token, method, url, payload, control, tables: TABLES });
    }
  });
});

describe('access to departments', () => {
  it('refuses SalesUsers, custom types without departments_page, agencies and admins on managing calls', async () => {
    const withPage = await addBusinessUser(c.t, c.seed.a.business.id, 'dep-page@a.test', '4', [
      'departments_page',
    ]);
    const without = await addBusinessUser(c.t, c.seed.a.business.id, 'no-dep-page@a.test', '4', [
      'users_page',
    ]);
    const support = await addBusinessUser(c.t, c.seed.a.business.id, 'dep-support@a.test', '1');
    for (const u of [withPage, support])
      expect((await c.api.get(await c.token(u.email), base)).statusCode).toBe(200);
    const id = (await rows(c.t, "select id from departments where name = 'Sales'"))[0].id;
    const before = await snapshot(c.t.pool, TABLES);
    for (const email of [
      c.seed.a.businessUser.email,
      without.email,
      c.seed.a.agencyAdmin.email,
      c.seed.admin.email,
    ]) {
      const token = await c.token(email);
      for (const res of [
        await c.api.get(token, base),
        await c.api.get(token, `${base}/${id}`),
        await c.api.post(token, base, { name: 'Nope' }),
        await c.api.put(token, `${base}/${id}`, { name: 'Nope' }),
        await c.api.put(token, `${base}/${id}/toggle-active`, { active: false }),
        await c.api.del(token, `${base}/${id}`),
      ]) {
        expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
      }
    }
    // The lookup lists are for business users only.
    expect((await c.api.get(await c.token(c.seed.a.agencyAdmin.email), `${base}/all`)).statusCode).toBe(403);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('answers 403 on every department call when departments are not enabled', async () => {
    await c.t.pool.query('update businesses set dep_enabled = false where id = $1', [c.seed.a.business.id]);
    try {
      const before = await snapshot(c.t.pool, TABLES);
      const token = await admin();
      for (const res of [
        await c.api.get(token, base),
        await c.api.get(token, `${base}/all`),
        await c.api.get(token, `${base}/sms-departments`),
        await c.api.post(token, base, { name: 'Nope' }),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().message).toBe('Departments are not enabled for this business.');
      }
      expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    } finally {
      await c.t.pool.query('update businesses set dep_enabled = true where id = $1', [c.seed.a.business.id]);
    }
  });
});
