import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  addBusinessUser,
  expect403,
  expect422,
  expectCrossTenant404,
  rows,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/tasks';
const TABLES = ['tasks'];
let sales: { id: number; email: string };
let custom: { id: number; email: string };
let noTasks: { id: number; email: string };
let contactId: number;
let contactB: number;

beforeAll(async () => {
  sales = await addBusinessUser(c.t, c.seed.a.business.id, 'sales@a.test', '3');
  custom = await addBusinessUser(c.t, c.seed.a.business.id, 'custom@a.test', '4', ['tasks_page']);
  noTasks = await addBusinessUser(c.t, c.seed.a.business.id, 'notasks@a.test', '4', ['contacts_page']);
  const ins = async (agency: number, business: number, phone: string) =>
    (
      await rows(
        c.t,
        'insert into contacts (agency_id, business_id, phone, first_name) values ($1, $2, $3, $4) returning id',
        [agency, business, phone, 'Ann'],
      )
    )[0].id as number;
  contactId = await ins(c.seed.a.agency.id, c.seed.a.business.id, '+15550001111');
  contactB = await ins(c.seed.b.agency.id, c.seed.b.business.id, '+15550002222');
});

const admin = () => c.token(c.seed.a.businessAdmin.email);

async function create(token: string, body: object) {
  const res = await c.api.post(token, base, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; user_id: number; status: string };
}

describe('tasks', () => {
  it('creates a task for a contact and an assignee, defaults the assignee to the caller', async () => {
    const token = await admin();
    const res = await c.api.post(token, base, {
      title: 'Call Ann back',
      description: 'About the quote',
      contact_id: contactId,
      user_id: sales.id,
      due_date: '2026-12-01',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Task created successfully.');
    expect(res.json().data).toMatchObject({
      title: 'Call Ann back',
      status: 'open',
      due_date: '2026-12-01',
      contact: { id: contactId, name: 'Ann', phone: '+15550001111' },
      assignee: { id: sales.id },
    });
    const [row] = await rows(c.t, 'select * from tasks where id = $1', [res.json().data.id]);
    expect(row).toMatchObject({ business_id: c.seed.a.business.id, agency_id: c.seed.a.agency.id });
    const mine = await create(token, { title: 'Mine' });
    expect(mine.user_id).toBe(c.seed.a.businessAdmin.id);
  });

  it('lists with search and status filters, and all; edits and marks done; deletes', async () => {
    const token = await admin();
    const t1 = await create(token, { title: 'Send invoice to Bob' });
    await create(token, { title: 'Unrelated', description: 'invoice inside' });
    const search = await c.api.get(token, `${base}?search=invoice`);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().meta.total).toBe(2);
    const done = await c.api.put(token, `${base}/${t1.id}`, { title: 'Send invoice to Bob', status: 'done' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe('done');
    const [row] = await rows(c.t, 'select done_at from tasks where id = $1', [t1.id]);
    expect(row.done_at).not.toBeNull();
    const open = await c.api.get(token, `${base}?search=invoice&status=open`);
    expect(open.json().data.map((t: { title: string }) => t.title)).toEqual(['Unrelated']);
    const doneList = await c.api.get(token, `${base}/all?status=done`);
    expect(doneList.json().data.map((t: { id: number }) => t.id)).toEqual([t1.id]);
    const one = await c.api.get(token, `${base}/${t1.id}`);
    expect(one.json().data.title).toBe('Send invoice to Bob');
    const del = await c.api.del(token, `${base}/${t1.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe('Task deleted successfully.');
    expect(await rows(c.t, 'select id from tasks where id = $1', [t1.id])).toEqual([]);
  });

  it('refuses bad input with 422 and saves nothing', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, TABLES);
    expect422(await c.api.post(token, base, { title: '  ' }), 'title', 'The title field is required');
    expect422(
      await c.api.post(token, base, { title: 'x', user_id: c.seed.b.businessUser.id }),
      'user_id',
      'The assignee must be an active user of this business.',
    );
    expect422(
      await c.api.post(token, base, { title: 'x', contact_id: contactB }),
      'contact_id',
      'The contact must be a contact of this business.',
    );
    const bad = await c.api.post(token, base, { title: 'x', due_date: 'tomorrow' });
    expect(bad.statusCode).toBe(422);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it("the badge: the profile's number_of_tasks counts the open tasks assigned to the user", async () => {
    const token = await c.token(sales.email);
    const count = async () => (await c.api.get(token, '/api/v1/profile')).json().data.user.number_of_tasks;
    const n = await count();
    const t = await create(await admin(), { title: 'For sales', user_id: sales.id });
    expect(await count()).toBe(n + 1);
    await c.api.put(await admin(), `${base}/${t.id}`, { title: 'For sales', status: 'done' });
    expect(await count()).toBe(n);
  });

  it('sends new_task { number_of_tasks } to the assignee only', async () => {
    await c.t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(c.t.app.server.address() as AddressInfo).port}/ws`;
    const open = (token: string) =>
      new Promise<{ ws: WebSocket; got: { type: string; data?: unknown }[] }>((resolve, reject) => {
        const ws = new WebSocket(`${url}?token=${token}`);
        const client = { ws, got: [] as { type: string; data?: unknown }[] };
        ws.on('message', (raw) => {
          const msg = JSON.parse(raw.toString());
          client.got.push(msg);
          if (msg.type === 'ready') resolve(client);
        });
        ws.on('error', reject);
      });
    const salesWs = await open(await c.token(sales.email));
    const customWs = await open(await c.token(custom.email));
    try {
      const expected =
        (
          await rows(c.t, "select count(*)::int n from tasks where user_id = $1 and status = 'open'", [
            sales.id,
          ])
        )[0].n + 1;
      await create(await admin(), { title: 'Ping', user_id: sales.id });
      await expect
        .poll(() => salesWs.got.find((m) => m.type === 'new_task'), { timeout: 5000 })
        .toEqual({ type: 'new_task', data: { number_of_tasks: expected } });
      expect(customWs.got.some((m) => m.type === 'new_task')).toBe(false);
    } finally {
      salesWs.ws.terminate();
      customWs.ws.terminate();
    }
  });

  it('roles: a SalesUser and a custom user with tasks_page may; others 403 and nothing changes', async () => {
    const t = await create(await c.token(sales.email), { title: 'By sales' });
    const res = await c.api.get(await c.token(custom.email), `${base}/${t.id}`);
    expect(res.statusCode, res.body).toBe(200);
    for (const email of [noTasks.email, c.seed.a.agencyAdmin.email]) {
      const token = await c.token(email);
      await expect403(c.t, TABLES, token, 'GET', '/v1/tasks');
      await expect403(c.t, TABLES, token, 'POST', '/v1/tasks', { title: 'x' });
      await expect403(c.t, TABLES, token, 'PUT', `/v1/tasks/${t.id}`, { title: 'x' });
      await expect403(c.t, TABLES, token, 'DELETE', `/v1/tasks/${t.id}`);
    }
    expect((await c.api.get(null, base)).statusCode).toBe(401);
  });

  it("another business's task is 404 for get, put and delete", async () => {
    const mine = await create(await admin(), { title: 'A task' });
    const theirs = await create(await c.token(c.seed.b.businessAdmin.email), { title: 'B task' });
    const token = await admin();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { title: 'taken over' }],
      ['DELETE', undefined],
    ] as const) {
      await expectCrossTenant404(c.t, {
        token,
        method,
        url: `${base}/${theirs.id}`,
        payload,
        control: { url: `${base}/${mine.id}`, method: method === 'DELETE' ? 'GET' : method, payload },
        tables: TABLES,
      });
    }
  });
});
