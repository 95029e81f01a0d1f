import { describe, expect, it } from 'vitest';
import { expect422, rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/release-notes';

const admin = () => c.token(c.seed.admin.email);

describe('release notes', () => {
  it('refuses business and agency users on the admin calls (403, nothing changes)', async () => {
    const [note] = await rows(
      c.t,
      "insert into release_notes (title, content) values ('Seed', 'x') returning id",
    );
    const before = await snapshot(c.t.pool, ['release_notes']);
    for (const email of [
      c.seed.a.businessAdmin.email,
      c.seed.a.businessUser.email,
      c.seed.a.agencyAdmin.email,
    ]) {
      const token = await c.token(email);
      for (const res of [
        await c.api.get(token, base),
        await c.api.get(token, `${base}/${note.id}`),
        await c.api.post(token, base, { title: 'x', content: 'y' }),
        await c.api.put(token, `${base}/${note.id}`, { title: 'x', content: 'y' }),
        await c.api.del(token, `${base}/${note.id}`),
      ]) {
        expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
      }
    }
    expect(await snapshot(c.t.pool, ['release_notes'])).toEqual(before);
    await c.t.pool.query('delete from release_notes');
  });

  it('lets an Admin create, read, edit and delete notes', async () => {
    const token = await admin();
    const created = await c.api.post(token, base, { title: 'Version 2', content: '<p>New inbox</p>' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      message: 'Release note created successfully.',
      data: { title: 'Version 2', content: '<p>New inbox</p>', published: true },
    });
    const id = created.json().data.id;
    const [row] = await rows(c.t, 'select * from release_notes where id = $1', [id]);
    expect(row).toMatchObject({ title: 'Version 2', published: true, author_id: c.seed.admin.id });

    expect((await c.api.get(token, `${base}/${id}`)).json().data.title).toBe('Version 2');
    const edited = await c.api.put(token, `${base}/${id}`, {
      title: 'Version 2.1',
      content: 'Fixes',
      published: false,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(
      (await rows(c.t, 'select title, content, published from release_notes where id = $1', [id]))[0],
    ).toEqual({
      title: 'Version 2.1',
      content: 'Fixes',
      published: false,
    });

    const before = await snapshot(c.t.pool, ['release_notes']);
    expect422(
      await c.api.put(token, `${base}/${id}`, { title: '', content: 'x' }),
      'title',
      'The title field is required',
    );
    expect422(await c.api.post(token, base, { title: 'x' }), 'content', 'The content field is required');
    expect(await snapshot(c.t.pool, ['release_notes'])).toEqual(before);

    const del = await c.api.del(await c.token(c.seed.superAdmin.email), `${base}/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await rows(c.t, 'select id from release_notes where id = $1', [id])).toEqual([]);
    expect(await rows(c.t, "select * from audit_logs where action = 'release_note.delete'")).toHaveLength(1);
    for (const res of [await c.api.get(token, `${base}/${id}`), await c.api.del(token, `${base}/${id}`)]) {
      expect(res.statusCode).toBe(404);
    }
  });

  it('lists every note for admins (status, keyword) and only published ones publicly, newest first', async () => {
    await c.t.pool.query(
      `insert into release_notes (title, content, published, published_at) values
       ('Old', 'a', true, now() - interval '2 days'),
       ('Draft', 'b', false, now()),
       ('New', 'c', true, now() - interval '1 day')`,
    );
    const pub = await c.api.get(null, `${base}/list`);
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json().data.map((n: { title: string }) => n.title)).toEqual(['New', 'Old']);
    expect(pub.json().meta).toEqual({ total: 2, page: 1, perPage: 10 });
    const page2 = await c.api.get(null, `${base}/list?perPage=1&page=2`);
    expect(page2.json().data.map((n: { title: string }) => n.title)).toEqual(['Old']);

    const token = await admin();
    expect((await c.api.get(token, base)).json().meta.total).toBe(3);
    expect(
      (await c.api.get(token, `${base}?status=draft`)).json().data.map((n: { title: string }) => n.title),
    ).toEqual(['Draft']);
    expect(
      (await c.api.get(token, `${base}?keyword=ol`)).json().data.map((n: { title: string }) => n.title),
    ).toEqual(['Old']);
  });

  it('dates a draft from the moment it is published', async () => {
    const [draft] = await rows(
      c.t,
      "insert into release_notes (title, content, published, published_at) values ('Later', 'x', false, now() - interval '10 days') returning id",
    );
    const res = await c.api.put(await admin(), `${base}/${draft.id}`, {
      title: 'Later',
      content: 'x',
      published: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const pub = (await c.api.get(null, `${base}/list`)).json();
    expect(pub.data[0].title).toBe('Later');
  });
});
