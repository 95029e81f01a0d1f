// The lead forms API (issue 21, ADR 074): every /v1/leadForm, /v1/allLeadForms and /v1/installs/{id}/forms
// call of spec 001, the form's own check and ids of another business refused with nothing written, another
// business's form or install answering 404, a user without the lead forms page refused, and an install's
// `lead_form_id` checked through the port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, drainJobs, expect422, expectCrossTenant404, snapshot } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { addField, addTag, enquiry, type FormTags } from './test-fixtures.ts';

let h: Telephony;
let admin: string;
let adminB: string;
let tags: FormTags;
let tagB: number;
const TABLES = ['lead_forms', 'embedded_forms', 'lead_submissions'];

const api = (token: string) => {
  const c = call(h.t);
  return {
    get: (url: string) => c.get(token, url),
    post: (url: string, payload: object = {}) => c.post(token, url, payload),
    put: (url: string, payload: object = {}) => c.put(token, url, payload),
    del: (url: string) => c.del(token, url),
  };
};

async function createForm(token: string, over: Record<string, unknown> = {}) {
  const res = await api(token).post('/api/v1/leadForm', enquiry(tags, over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string; active: boolean };
}

beforeAll(async () => {
  h = await telephonyApp();
  await drainJobs(h.t);
  admin = await h.token(h.seed.a.businessAdmin.email);
  adminB = await h.token(h.seed.b.businessAdmin.email);
  const a = h.seed.a.business.id;
  tags = {
    lead: await addTag(h.t, a, 'Lead'),
    cleaning: await addTag(h.t, a, 'Cleaning'),
    whitening: await addTag(h.t, a, 'Whitening'),
    consent: await addTag(h.t, a, 'Marketing OK'),
  };
  tagB = await addTag(h.t, h.seed.b.business.id, 'Other business');
  await addField(h.t, a, 'insurer');
});
afterAll(() => h?.close());

describe('lead forms: create, read, list, edit, toggle, delete', () => {
  it('saves a form and answers it with its derived fields', async () => {
    const res = await api(admin).post('/api/v1/leadForm', enquiry(tags));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Lead form saved.');
    const f = res.json().data;
    expect(f).toMatchObject({
      name: 'New patient enquiry',
      active: true,
      languages: ['en', 'es'],
      tag_ids: [tags.lead],
      is_allow_multi_select: true,
      submissions: 0,
      installs: [],
      styling: { Padding: 20, MaxWidth: 500 },
    });
    // Defaults filled: a question's placeholder, an option's tag, a consent's map_to.
    expect(f.steps[0].questions[0]).toMatchObject({ placeholder: {}, required: false, options: [] });
    expect(f.steps[1].questions[2]).toMatchObject({ tag_id: tags.consent, map_to: null });
    const [row] = (await h.t.pool.query('select * from lead_forms where id = $1', [f.id])).rows;
    expect(row).toMatchObject({ agency_id: h.seed.a.agency.id, business_id: h.seed.a.business.id });

    const one = await api(admin).get(`/api/v1/leadForm/${f.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toEqual(f);

    const put = await api(admin).put(
      `/api/v1/leadForm/${f.id}`,
      enquiry(tags, { name: 'Spring enquiry', tag_ids: [] }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      message: 'Lead form updated successfully.',
      data: { id: f.id, name: 'Spring enquiry', tag_ids: [] },
    });

    const off = await api(admin).post(`/api/v1/leadForm/${f.id}/toggle-active`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Lead form deactivated.', data: { active: false } });
    const list = await api(admin).get('/api/v1/allLeadForms?search=spring&status=inactive');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([f.id]);
    expect(list.json().meta.total).toBe(1);
    expect((await api(admin).get('/api/v1/allLeadForms?search=spring&status=active')).json().meta.total).toBe(
      0,
    );
    const on = await api(admin).post(`/api/v1/leadForm/${f.id}/toggle-active`);
    expect(on.json()).toMatchObject({ message: 'Lead form activated.', data: { active: true } });

    const del = await api(admin).del(`/api/v1/leadForm/${f.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('Lead form deleted successfully.');
    expect((await api(admin).get(`/api/v1/leadForm/${f.id}`)).statusCode).toBe(404);
    expect((await api(admin).get('/api/v1/allLeadForms?search=spring')).json().meta.total).toBe(0);
    // Kept as deleted (its submissions stay on record).
    const [gone] = (await h.t.pool.query('select deleted_at, active from lead_forms where id = $1', [f.id]))
      .rows;
    expect(gone.deleted_at).not.toBeNull();
    expect(gone.active).toBe(false);
  });

  it('refuses a form breaking its own rules, naming each field, and writes nothing', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    const bad = enquiry(tags);
    // No Spanish label on the phone question, one option only, no phone mapped.
    const steps = structuredClone(bad.steps) as unknown as { questions: Record<string, unknown>[] }[];
    (steps[0]?.questions[1] as { label: object }).label = { en: 'Phone' };
    (steps[1]?.questions[0] as { options: unknown[] }).options.pop();
    const res = await api(admin).post('/api/v1/leadForm', { ...bad, steps });
    expect422(res, 'steps.0.questions.1.label.es', 'The es field is required');
    expect(res.json().errors['steps.1.questions.0.options'][0]).toBe('A choice needs at least two options.');

    const noPhone = structuredClone(bad.steps) as unknown as { questions: Record<string, unknown>[] }[];
    (noPhone[0]?.questions[1] as { map_to: null }).map_to = null;
    expect422(
      await api(admin).post('/api/v1/leadForm', { ...bad, steps: noPhone }),
      'steps',
      "A lead form needs a required phone question that fills the contact's phone.",
    );
    // The schema's own refusals: an empty name, an unknown question type.
    expect422(
      await api(admin).post('/api/v1/leadForm', { ...bad, name: '' }),
      'name',
      'The name field is required',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("refuses another business's tags and an unknown custom field, on the field, and writes nothing", async () => {
    const f = await createForm(admin, { name: 'Kept as it was' });
    const before = await snapshot(h.t.pool, TABLES);
    const steps = structuredClone(enquiry(tags).steps) as unknown as {
      questions: { options: { tag_id: number }[]; tag_id: number | null; map_to: string | null }[];
    }[];
    const choice = steps[1]?.questions[0];
    const insurer = steps[1]?.questions[1];
    const consent = steps[1]?.questions[2];
    if (!choice?.options[1] || !insurer || !consent) throw new Error('fixture');
    choice.options[1].tag_id = tagB;
    consent.tag_id = tagB;
    insurer.map_to = 'field:shoe_size';
    for (const send of [
      () => api(admin).post('/api/v1/leadForm', enquiry(tags, { steps, tag_ids: [tagB] })),
      () => api(admin).put(`/api/v1/leadForm/${f.id}`, enquiry(tags, { steps, tag_ids: [tagB] })),
    ]) {
      const res = await send();
      expect422(res, 'tag_ids', 'Choose a tag of this business.');
      expect(res.json().errors).toMatchObject({
        'steps.1.questions.0.options.1.tag_id': ['Choose a tag of this business.'],
        'steps.1.questions.2.tag_id': ['Choose a tag of this business.'],
        'steps.1.questions.1.map_to': ['Choose a contact field of this business.'],
      });
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("answers 404 for another business's form and changes nothing", async () => {
    const f = await createForm(admin, { name: 'Only for A' });
    const mine = await createForm(adminB, {
      name: "B's own",
      tag_ids: [],
      steps: enquiry(tags).steps.slice(0, 1),
    });
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PUT', '', enquiry(tags, { tag_ids: [], steps: enquiry(tags).steps.slice(0, 1) })],
      ['DELETE', '', undefined],
      ['POST', '/toggle-active', {}],
    ] as const)
      await expectCrossTenant404(h.t, {
        token: adminB,
        method,
        url: `/api/v1/leadForm/${f.id}${suffix}`,
        payload,
        control: {
          url: `/api/v1/leadForm/${mine.id}${suffix}`,
          ...(method === 'DELETE' ? { method: 'GET' } : {}),
          payload,
        },
        tables: TABLES,
      });
    expect(
      (await api(adminB).get('/api/v1/allLeadForms')).json().data.map((x: { id: number }) => x.id),
    ).not.toContain(f.id);
  });

  it('refuses a business user without the lead forms page (403)', async () => {
    const sales = await h.token(h.seed.a.businessUser.email);
    const res = await api(sales).get('/api/v1/allLeadForms');
    expect(res.statusCode, res.body).toBe(403);
    expect((await api(sales).post('/api/v1/leadForm', enquiry(tags))).statusCode).toBe(403);
  });
});

describe('embedded forms of an install', () => {
  it('creates one with its embed code, lists, reads, edits, toggles and deletes it', async () => {
    const install = await h.install();
    const f = await createForm(admin, { name: 'Embedded enquiry' });
    const base = `/api/v1/installs/${install.id}/forms`;
    const res = await api(admin).post(base, { name: 'Contact page', lead_form_id: f.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Form saved.');
    const e = res.json().data;
    expect(e).toMatchObject({
      install_id: install.id,
      name: 'Contact page',
      lead_form_id: f.id,
      lead_form_name: 'Embedded enquiry',
      active: true,
      settings: { language: 'auto', show_title: true, use_install_style: true, redirect_url: '' },
      submissions: 0,
    });
    // The placeholder and the install's own embed code (the installs module's, on the agency's host).
    const code = (await api(admin).get(`/api/v1/installs/${install.id}/embed-code`)).json().data
      .code as string;
    expect(code).toContain(`data-key="${install.key}"`);
    expect(e.embed_code).toBe(`<div data-stn-form="${e.id}"></div>\n${code}`);

    const list = await api(admin).get(base);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ data: [e], meta: { total: 1 } });
    expect((await api(admin).get(`${base}/${e.id}`)).json().data).toEqual(e);
    // The lead form lists the install that places it.
    expect((await api(admin).get(`/api/v1/leadForm/${f.id}`)).json().data.installs).toEqual([
      { id: install.id, name: expect.any(String) },
    ]);

    const put = await api(admin).put(`${base}/${e.id}`, {
      name: 'Contact page (es)',
      lead_form_id: f.id,
      settings: { language: 'es', use_install_style: false, redirect_url: 'https://example.test/thanks' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      message: 'Form updated successfully.',
      data: { name: 'Contact page (es)', settings: { language: 'es', use_install_style: false } },
    });
    const off = await api(admin).post(`${base}/${e.id}/toggle-active`);
    expect(off.json()).toMatchObject({ message: 'Form deactivated.', data: { active: false } });
    const on = await api(admin).post(`${base}/${e.id}/toggle-active`);
    expect(on.json()).toMatchObject({ message: 'Form activated.', data: { active: true } });
    const del = await api(admin).del(`${base}/${e.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('Form deleted successfully.');
    expect((await api(admin).get(`${base}/${e.id}`)).statusCode).toBe(404);
    expect((await api(admin).get(base)).json().meta.total).toBe(0);
  });

  it("refuses another business's lead form, a deleted one and a language the form lacks, writing nothing", async () => {
    const install = await h.install();
    const formB = await createForm(adminB, { tag_ids: [], steps: enquiry(tags).steps.slice(0, 1) });
    const gone = await createForm(admin, { name: 'Gone' });
    await api(admin).del(`/api/v1/leadForm/${gone.id}`);
    const f = await createForm(admin);
    const base = `/api/v1/installs/${install.id}/forms`;
    const before = await snapshot(h.t.pool, TABLES);
    for (const id of [formB.id, gone.id])
      expect422(
        await api(admin).post(base, { name: 'X', lead_form_id: id }),
        'lead_form_id',
        "Choose one of this business's lead forms.",
      );
    expect422(
      await api(admin).post(base, { name: 'X', lead_form_id: f.id, settings: { language: 'br' } }),
      'settings.language',
      "Choose one of the lead form's languages.",
    );
    expect422(
      await api(admin).post(base, { name: 'X' }),
      'lead_form_id',
      'The lead form id field is required',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("answers 404 for another business's install or embedded form, and changes nothing", async () => {
    const install = await h.install();
    const installB = await h.install({}, { tenant: 'b' });
    const f = await createForm(admin);
    const fB = await createForm(adminB, { tag_ids: [], steps: enquiry(tags).steps.slice(0, 1) });
    const e = (
      await api(admin).post(`/api/v1/installs/${install.id}/forms`, { name: 'A', lead_form_id: f.id })
    ).json().data;
    const eB = (
      await api(adminB).post(`/api/v1/installs/${installB.id}/forms`, { name: 'B', lead_form_id: fB.id })
    ).json().data;
    const body = { name: 'Taken over', lead_form_id: fB.id };
    for (const [method, suffix, payload] of [
      ['GET', `/${e.id}`, undefined],
      ['PUT', `/${e.id}`, body],
      ['DELETE', `/${e.id}`, undefined],
      ['POST', `/${e.id}/toggle-active`, {}],
      ['GET', '', undefined],
      ['POST', '', body],
    ] as const)
      await expectCrossTenant404(h.t, {
        token: adminB,
        method,
        url: `/api/v1/installs/${install.id}/forms${suffix}`,
        payload,
        control: {
          url: `/api/v1/installs/${installB.id}/forms${suffix.replace(String(e.id), String(eB.id))}`,
          ...(method === 'DELETE' ? { method: 'GET' as const } : {}),
          payload,
        },
        tables: TABLES,
      });
    // A's own embedded form named under another install of A is not found either.
    const other = await h.install();
    expect((await api(admin).get(`/api/v1/installs/${other.id}/forms/${e.id}`)).statusCode).toBe(404);
  });
});

describe("an install's lead form setting", () => {
  it('takes only a live lead form of the business (a 422 on settings.lead_form_id otherwise)', async () => {
    const install = await h.install();
    const f = await createForm(admin, { name: 'Widget form' });
    const fB = await createForm(adminB, { tag_ids: [], steps: enquiry(tags).steps.slice(0, 1) });
    const before = await snapshot(h.t.pool, ['installs']);
    const res = await api(admin).put(`/api/v1/installs/${install.id}/setting`, {
      settings: { is_enable_lead_form: true, lead_form_id: fB.id },
    });
    expect422(res, 'settings.lead_form_id', "Choose one of this business's lead forms.");
    expect(await snapshot(h.t.pool, ['installs'])).toEqual(before);

    const ok = await api(admin).put(`/api/v1/installs/${install.id}/setting`, {
      settings: { is_enable_lead_form: true, lead_form_id: f.id },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.settings).toMatchObject({ is_enable_lead_form: true, lead_form_id: f.id });
    expect((await api(admin).get(`/api/v1/leadForm/${f.id}`)).json().data.installs).toEqual([
      { id: install.id, name: expect.any(String) },
    ]);
    // A new install with another business's form is refused too.
    const created = await api(admin).post('/api/v1/installs', {
      name: 'Refused',
      website: 'https://example.test',
      settings: { is_enable_lead_form: true, lead_form_id: fB.id },
    });
    expect422(created, 'settings.lead_form_id', "Choose one of this business's lead forms.");
  });
});

describe('submissions', () => {
  it('lists none yet and answers 404 for an unknown one', async () => {
    const res = await api(admin).get('/api/v1/leadSubmissions?lead_form_id=1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await api(admin).get('/api/v1/leadSubmissions/999999')).statusCode).toBe(404);
  });
});
