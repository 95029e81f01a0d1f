import { describe, expect, it } from 'vitest';
import { expect422, rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/pages';

describe('pages', () => {
  it('answers an empty page before anything is written, and 404 for an unknown key', async () => {
    const res = await c.api.get(await c.token(c.seed.admin.email), `${base}/training`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      key: 'training',
      title: '',
      content: '',
      source: 'none',
      updated_at: null,
    });
    expect((await c.api.get(await c.token(c.seed.admin.email), `${base}/nope`)).statusCode).toBe(404);
    expect(
      (await c.api.get(null, `${base}/terms-of-services/public?domain=calls-a.example.com`)).statusCode,
    ).toBe(404);
  });

  it('lets an Admin write platform pages, which agencies read (training)', async () => {
    const admin = await c.token(c.seed.admin.email);
    for (const [key, title] of [
      ['training', 'Training'],
      ['terms-of-services', 'Terms'],
      ['privacy-policy', 'Privacy'],
    ]) {
      const res = await c.api.put(admin, `${base}/${key}`, { title, content: `<p>${title} text</p>` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Page saved successfully.');
    }
    const again = await c.api.put(admin, `${base}/training`, {
      title: 'Training',
      content: '<p>Video 1</p>',
    });
    expect(again.json().data).toMatchObject({ source: 'platform', content: '<p>Video 1</p>' });
    const stored = await rows(c.t, 'select agency_id, key, title from pages order by key');
    expect(stored).toEqual([
      { agency_id: null, key: 'privacy-policy', title: 'Privacy' },
      { agency_id: null, key: 'terms-of-services', title: 'Terms' },
      { agency_id: null, key: 'training', title: 'Training' },
    ]);
    for (const email of [c.seed.a.agencyAdmin.email, c.seed.a.agencyUser.email]) {
      const res = await c.api.get(await c.token(email), `${base}/training`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        title: 'Training',
        content: '<p>Video 1</p>',
        source: 'platform',
      });
    }
  });

  it('refuses bad input, business users, and agencies writing training (nothing saved)', async () => {
    const before = await snapshot(c.t.pool, ['pages']);
    expect422(
      await c.api.put(await c.token(c.seed.admin.email), `${base}/training`, { title: '', content: 'x' }),
      'title',
      'The title field is required',
    );
    const biz = await c.token(c.seed.a.businessAdmin.email);
    expect((await c.api.get(biz, `${base}/training`)).statusCode).toBe(403);
    expect((await c.api.put(biz, `${base}/training`, { title: 'x', content: 'y' })).statusCode).toBe(403);
    const agency = await c.token(c.seed.a.agencyAdmin.email);
    expect((await c.api.put(agency, `${base}/training`, { title: 'x', content: 'y' })).statusCode).toBe(403);
    const agencyUser = await c.token(c.seed.a.agencyUser.email);
    expect(
      (await c.api.put(agencyUser, `${base}/terms-of-services`, { title: 'x', content: 'y' })).statusCode,
    ).toBe(403);
    expect(await snapshot(c.t.pool, ['pages'])).toEqual(before);
  });

  it("serves a domain its agency's own terms, else the platform's", async () => {
    const agency = await c.token(c.seed.a.agencyAdmin.email);
    const res = await c.api.put(agency, `${base}/terms-of-services`, {
      title: 'A Terms',
      content: 'Agency A terms',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ source: 'agency', title: 'A Terms' });
    const [row] = await rows(c.t, "select agency_id from pages where title = 'A Terms'");
    expect(row.agency_id).toBe(c.seed.a.agency.id);
    // The platform page is untouched; agency B still reads it.
    expect(
      (await c.api.get(await c.token(c.seed.b.agencyAdmin.email), `${base}/terms-of-services`)).json().data,
    ).toMatchObject({ title: 'Terms', source: 'platform' });

    const pub = (host: string, key = 'terms-of-services') =>
      c.api.get(null, `${base}/${key}/public?domain=${host}`);
    const a = await pub('calls-a.example.com');
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toEqual({
      success: true,
      data: { data: { key: 'terms-of-services', title: 'A Terms', content: 'Agency A terms' } },
    });
    expect((await pub('calls-b.example.com')).json().data.data.title).toBe('Terms');
    expect((await pub('unknown.example.org')).json().data.data.title).toBe('Terms');
    expect((await pub('calls-a.example.com', 'privacy-policy')).json().data.data.title).toBe('Privacy');
    expect((await pub('calls-a.example.com', 'training')).statusCode).toBe(404);
    expect((await pub('calls-a.example.com', 'nope')).statusCode).toBe(404);
    expect((await c.api.get(null, `${base}/terms-of-services/public`)).statusCode).toBe(422);
  });
});

describe('API document', () => {
  it("describes this module's calls", async () => {
    const res = await c.api.get(null, '/api/docs/json');
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/v1/businesses/users/{id}/change-password',
      '/api/v1/departments/{id}/sms-agents',
      '/api/v1/users/{id}',
      '/api/v1/release-notes/list',
      '/api/v1/blacklist/import',
      '/api/v1/whitelist/{id}',
      '/api/v1/pages/{key}/public',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
