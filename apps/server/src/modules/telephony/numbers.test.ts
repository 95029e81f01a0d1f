import { beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  expect403,
  expect422,
  expectCrossTenant404,
  rows,
  snapshot,
  useSuite,
} from '../../../test/helpers.ts';

// The numbers calls through the real twilio SDK and the platform's sandbox carrier: tenants A and B are
// set up on the sandbox (agency Setup's { sandbox: true }), each business has an install.

const c = useSuite();
const TABLES = ['numbers', 'installs'];
const A = () => c.seed.a;
const B = () => c.seed.b;
const admin = () => c.token(A().businessAdmin.email);
const sales = () => c.token(A().businessUser.email);
const sandbox = () => {
  const s = c.t.app.deps.carrier.sandbox;
  if (!s) throw new Error('the sandbox carrier is off');
  return s;
};

let installA = 0;
let installA2 = 0;
let installB = 0;

async function install(agencyId: number, businessId: number, name: string): Promise<number> {
  const [r] = await rows(
    c.t,
    `insert into installs (agency_id, business_id, key, name) values ($1, $2, $3, $4) returning id`,
    [agencyId, businessId, `key-${name}-${Math.random()}`, name],
  );
  return r.id as number;
}

/** Polls until `check` holds (webhooks from the sandbox arrive on its real clock). */
async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  for (const tenant of [A(), B()]) {
    const res = await c.api.put(await c.token(tenant.agencyAdmin.email), '/api/v1/agencies/twilio-config', {
      sandbox: true,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  installA = await install(A().agency.id, A().business.id, 'Site A');
  installA2 = await install(A().agency.id, A().business.id, 'Site A2');
  installB = await install(B().agency.id, B().business.id, 'Site B');
});

const search = async (areaCode = 212) => {
  const res = await c.api.post(await admin(), '/api/v1/installs/search-phonenumber', {
    country: 'US',
    area_code: areaCode,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { phone_number: string }[];
};

describe('search and purchase', () => {
  it('searches the carrier by area code and buys a number for the install, pointed at our webhooks', async () => {
    const found = await search(212);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.phone_number).toMatch(/^\+1212/);
    const phone = found[0]?.phone_number ?? '';
    const res = await c.api.post(await admin(), `/api/v1/installs/${installA}/purchase-phonenumber`, {
      phone_number: phone,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      phone_number: phone,
      kind: 'purchased',
      install_id: installA,
      install_name: 'Site A',
      verified: true,
    });
    const [stored] = await rows(c.t, 'select * from numbers where phone_number = $1', [phone]);
    expect(stored).toMatchObject({ business_id: A().business.id, install_id: installA, kind: 'purchased' });
    expect(stored.carrier_sid).toMatch(/^PN/);
    // The carrier has it, with the platform's webhooks.
    const incoming = [...sandbox().incomingNumbers.values()].find((n) => n.phoneNumber === phone);
    const base = c.t.config.publicUrl.origin;
    expect(incoming).toMatchObject({
      voiceUrl: `${base}/webhooks/twilio/voice`,
      smsUrl: `${base}/webhooks/twilio/sms-in`,
    });
    // The number is no longer offered.
    expect((await search(212)).map((n) => n.phone_number)).not.toContain(phone);
  });

  it('refuses a second purchase for the same install, a bad number, an unknown install (nothing changes)', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const carrierBefore = sandbox().incomingNumbers.size;
    const [other] = await search(213);
    expect422(
      await c.api.post(await admin(), `/api/v1/installs/${installA}/purchase-phonenumber`, {
        phone_number: other?.phone_number,
      }),
      'phone_number',
      'This install already has a number. Release it before buying or assigning another.',
    );
    expect422(
      await c.api.post(await admin(), `/api/v1/installs/${installA2}/purchase-phonenumber`, {
        phone_number: '12345',
      }),
      'phone_number',
      'Wrong phone number format!!',
    );
    const unknown = await c.api.post(await admin(), '/api/v1/installs/999999/purchase-phonenumber', {
      phone_number: other?.phone_number,
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    expect(sandbox().incomingNumbers.size).toBe(carrierBefore);
  });

  it('an area code outside the range is a 422', async () => {
    const res = await c.api.post(await admin(), '/api/v1/installs/search-phonenumber', { area_code: 12 });
    expect(res.statusCode, res.body).toBe(422);
  });
});

describe('what a number is, before it is bought (ADR 051)', () => {
  it('each number offered carries its monthly price and the place its area code is', async () => {
    const token = await admin();
    const place = async (area: number) => {
      const res = await c.api.post(token, '/api/v1/installs/search-phonenumber', {
        country: 'US',
        area_code: area,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data[0] as {
        locality: string | null;
        region: string | null;
        monthly_price: string | null;
      };
    };
    expect(await place(646)).toMatchObject({ locality: 'New York', region: 'NY', monthly_price: '1.15' });
    expect(await place(312)).toMatchObject({ locality: 'Chicago', region: 'IL' });
    // An area code the table does not know says no place rather than a wrong one.
    expect(await place(989)).toMatchObject({ locality: null, region: null });
    const gb = await c.api.post(token, '/api/v1/installs/search-phonenumber', { country: 'GB' });
    expect(gb.json().data[0]).toMatchObject({ locality: 'London', price_unit: 'USD' });
  });
});

describe('check, assign, release', () => {
  it('check-number re-points webhooks that no longer point here', async () => {
    const [n] = await rows(c.t, 'select * from numbers where install_id = $1 and kind = $2', [
      installA,
      'purchased',
    ]);
    const ok = await c.api.post(await admin(), `/api/v1/installs/${installA}/check-number`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({
      phone_number: n.phone_number,
      found: true,
      webhooks_ok: true,
      repointed: false,
    });
    // Someone changed the number in the carrier's console.
    const incoming = sandbox().incomingNumbers.get(n.carrier_sid);
    if (!incoming) throw new Error('not at the carrier');
    incoming.voiceUrl = 'https://elsewhere.example.com/voice';
    const fixed = await c.api.post(await admin(), `/api/v1/installs/${installA}/check-number`);
    expect(fixed.json().data).toMatchObject({ found: true, webhooks_ok: true, repointed: true });
    expect(sandbox().incomingNumbers.get(n.carrier_sid)?.voiceUrl).toBe(
      `${c.t.config.publicUrl.origin}/webhooks/twilio/voice`,
    );
  });

  it('release gives the number back to the carrier and keeps the row, unassigned', async () => {
    const [n] = await rows(c.t, 'select * from numbers where install_id = $1 and kind = $2', [
      installA,
      'purchased',
    ]);
    const res = await c.api.post(await admin(), `/api/v1/installs/${installA}/release-number`);
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await rows(c.t, 'select install_id, released_at from numbers where id = $1', [n.id]);
    expect(after.install_id).toBeNull();
    expect(after.released_at).not.toBeNull();
    expect(sandbox().incomingNumbers.has(n.carrier_sid)).toBe(false);
    const again = await c.api.post(await admin(), `/api/v1/installs/${installA}/release-number`);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This install has no number yet.');
  });
});

describe('assign', () => {
  it('assigns an unassigned purchased number; refuses an install that has one, an unknown number', async () => {
    const [x, y] = await search(305);
    const bought = await c.api.post(await admin(), `/api/v1/installs/${installA2}/purchase-phonenumber`, {
      phone_number: x?.phone_number,
    });
    const id = bought.json().data.id;
    const un = await c.api.put(await admin(), `/api/v1/numbers/${id}`, { install_id: null });
    expect(un.statusCode, un.body).toBe(200);
    expect(un.json().data.install_id).toBeNull();
    const res = await c.api.post(await admin(), `/api/v1/installs/${installA2}/assign-phonenumber`, {
      number_id: id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id, install_id: installA2, install_name: 'Site A2' });

    await c.api.post(await admin(), `/api/v1/installs/${installA}/purchase-phonenumber`, {
      phone_number: y?.phone_number,
    });
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(await admin(), `/api/v1/installs/${installA}/assign-phonenumber`, { number_id: id }),
      'number_id',
      'This install already has a number. Release it before buying or assigning another.',
    );
    const unknown = await c.api.post(await admin(), `/api/v1/installs/${installA}/assign-phonenumber`, {
      number_id: 987654,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('landline', () => {
  it('assigns a landline for texting (install settings follow) and disables it', async () => {
    const res = await c.api.post(await admin(), `/api/v1/installs/${installA}/assign-landline-number`, {
      phone_number: '(213) 373-4253',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      phone_number: '+12133734253',
      kind: 'landline',
      sms_enabled: true,
      install_id: installA,
    });
    const [inst] = await rows(c.t, 'select settings from installs where id = $1', [installA]);
    expect(inst.settings).toMatchObject({ landline_number: '+12133734253', landline_enabled: true });
    const off = await c.api.post(await admin(), `/api/v1/installs/${installA}/disable-landline-number`);
    expect(off.statusCode, off.body).toBe(200);
    const [after] = await rows(c.t, 'select settings from installs where id = $1', [installA]);
    expect(after.settings).toMatchObject({ landline_number: null, landline_enabled: false });
  });

  it('a bad landline number is a 422 that changes nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(await admin(), `/api/v1/installs/${installA}/assign-landline-number`, {
        phone_number: 'abc',
      }),
      'phone_number',
      'Wrong phone number format!!',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('caller id verification', () => {
  const PHONE = '+14155550123';

  it('the carrier calls, the person types the code, the webhook marks the number verified', async () => {
    const res = await c.api.post(await admin(), '/api/v1/installs/verify-phone-number', {
      phone_number: PHONE,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { validation_code: code, verified } = res.json().data;
    expect(verified).toBe(false);
    expect(code).toMatch(/^\d{6}$/);
    const [kept] = await rows(
      c.t,
      'select kind, verified, validation_code from numbers where phone_number = $1',
      [PHONE],
    );
    expect(kept).toEqual({ kind: 'caller_id', verified: false, validation_code: code });
    const check = await c.api.post(await admin(), '/api/v1/installs/check-caller-id', {
      phone_number: PHONE,
    });
    expect(check.json().data.verified).toBe(false);

    // The person's phone rings: answer, wait for the prompt, type the code.
    const phones = sandbox().phones;
    await eventually(async () => phones.get(PHONE).state === 'ringing');
    phones.answer(PHONE);
    await eventually(async () => phones.get(PHONE).call?.gathering === true);
    phones.press(PHONE, code);
    await eventually(
      async () =>
        (await rows(c.t, 'select verified from numbers where phone_number = $1', [PHONE]))[0]?.verified ===
        true,
    );
    const after = await c.api.post(await admin(), '/api/v1/installs/check-caller-id', {
      phone_number: PHONE,
    });
    expect(after.json().data.verified).toBe(true);
    // Asked again, it is already verified: no call.
    const again = await c.api.post(await admin(), '/api/v1/installs/verify-phone-number', {
      phone_number: PHONE,
    });
    expect(again.json().data).toMatchObject({ verified: true });
  });

  it('an unsigned caller-id-status webhook is refused and changes nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/webhooks/twilio/caller-id-status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `AccountSid=AC00000000000000000000000000000000&PhoneNumber=%2B14155550199&VerificationStatus=success`,
    });
    expect(res.statusCode).toBe(403);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('/v1/numbers', () => {
  it('adds a caller id, lists, finds by keyword, edits, deletes', async () => {
    const add = await c.api.post(await admin(), '/api/v1/numbers', {
      phone_number: '+1 (646) 555-0142',
      friendly_name: 'Front desk',
    });
    expect(add.statusCode, add.body).toBe(200);
    const n = add.json().data;
    expect(n).toMatchObject({ phone_number: '+16465550142', kind: 'caller_id', verified: false });
    const dup = await c.api.post(await admin(), '/api/v1/numbers', { phone_number: '+16465550142' });
    expect422(dup, 'phone_number', 'This number has already been added.');

    const list = await c.api.get(await admin(), '/api/v1/numbers?keyword=646555');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([n.id]);
    expect((await c.api.get(await admin(), '/api/v1/numbers')).json().meta.total).toBeGreaterThan(1);
    const all = await c.api.get(await admin(), '/api/v1/numbers/all');
    expect(all.json().data.map((x: { id: number }) => x.id)).toContain(n.id);

    const edit = await c.api.put(await admin(), `/api/v1/numbers/${n.id}`, {
      friendly_name: 'Reception',
      install_id: installA2,
      sms_enabled: true,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data).toMatchObject({
      friendly_name: 'Reception',
      install_id: installA2,
      sms_enabled: true,
    });
    expect((await c.api.get(await admin(), `/api/v1/numbers/${n.id}`)).json().data.friendly_name).toBe(
      'Reception',
    );

    const bad = await c.api.put(await admin(), `/api/v1/numbers/${n.id}`, { install_id: installB });
    expect(bad.statusCode).toBe(404);

    const del = await c.api.del(await admin(), `/api/v1/numbers/${n.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await c.api.get(await admin(), `/api/v1/numbers/${n.id}`)).statusCode).toBe(404);
  });

  it('deleting a purchased number releases it at the carrier', async () => {
    const [n] = await rows(
      c.t,
      'select * from numbers where install_id = $1 and kind = $2 and released_at is null',
      [installA2, 'purchased'],
    );
    expect(sandbox().incomingNumbers.has(n.carrier_sid)).toBe(true);
    const del = await c.api.del(await admin(), `/api/v1/numbers/${n.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(sandbox().incomingNumbers.has(n.carrier_sid)).toBe(false);
  });

  it('a bad number is a 422 that adds nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(await admin(), '/api/v1/numbers', { phone_number: '555' }),
      'phone_number',
      'Wrong phone number format!!',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});

describe('access', () => {
  it('a SalesUser gets 403 on every call, and nothing changes', async () => {
    const token = await sales();
    const [n] = await rows(c.t, 'select id from numbers where business_id = $1 limit 1', [A().business.id]);
    const calls: [string, string, object | undefined][] = [
      ['POST', '/v1/installs/search-phonenumber', { area_code: 212 }],
      ['POST', `/v1/installs/${installA}/purchase-phonenumber`, { phone_number: '+12125550199' }],
      ['POST', `/v1/installs/${installA}/assign-phonenumber`, { number_id: n.id }],
      ['POST', `/v1/installs/${installA}/release-number`, undefined],
      ['POST', `/v1/installs/${installA}/check-number`, undefined],
      ['POST', `/v1/installs/${installA}/assign-landline-number`, { phone_number: '+12133734253' }],
      ['POST', `/v1/installs/${installA}/disable-landline-number`, undefined],
      ['POST', '/v1/installs/verify-phone-number', { phone_number: '+14155550177' }],
      ['POST', '/v1/installs/check-caller-id', { phone_number: '+14155550177' }],
      ['GET', '/v1/numbers', undefined],
      ['GET', '/v1/numbers/all', undefined],
      ['GET', `/v1/numbers/${n.id}`, undefined],
      ['POST', '/v1/numbers', { phone_number: '+14155550177' }],
      ['PUT', `/v1/numbers/${n.id}`, { friendly_name: 'x' }],
      ['DELETE', `/v1/numbers/${n.id}`, undefined],
    ];
    for (const [method, url, payload] of calls)
      await expect403(c.t, TABLES, token, method as 'GET', url, payload);
  });

  it('a custom type with the numbers page only manages numbers, not the install calls', async () => {
    await addBusinessUser(c.t, A().business.id, 'numbers-only@a.test', '4', ['numbers_page']);
    const token = await c.token('numbers-only@a.test');
    expect((await c.api.get(token, '/api/v1/numbers')).statusCode).toBe(200);
    const check = await c.api.post(token, '/api/v1/installs/check-caller-id', {
      phone_number: '+14155550123',
    });
    expect(check.statusCode, check.body).toBe(200);
    await expect403(c.t, TABLES, token, 'POST', '/v1/installs/search-phonenumber', { area_code: 212 });
    await expect403(c.t, TABLES, token, 'POST', `/v1/installs/${installA}/purchase-phonenumber`, {
      phone_number: '+12125550199',
    });
  });

  it("another business's install or number is a 404 and nothing changes", async () => {
    const token = await admin();
    const [mine] = await rows(
      c.t,
      'select id from numbers where business_id = $1 and released_at is null limit 1',
      [A().business.id],
    );
    const res = await c.api.post(await c.token(B().businessAdmin.email), '/api/v1/numbers', {
      phone_number: '+14155550188',
    });
    const theirs = res.json().data.id;
    const cases: {
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string;
      control: string;
      payload?: object;
    }[] = [
      { method: 'GET', url: `/api/v1/numbers/${theirs}`, control: `/api/v1/numbers/${mine.id}` },
      {
        method: 'PUT',
        url: `/api/v1/numbers/${theirs}`,
        control: `/api/v1/numbers/${mine.id}`,
        payload: { friendly_name: 'x' },
      },
      {
        method: 'POST',
        url: `/api/v1/installs/${installB}/check-number`,
        control: `/api/v1/installs/${installA}/check-number`,
      },
      {
        method: 'POST',
        url: `/api/v1/installs/${installB}/assign-landline-number`,
        control: `/api/v1/installs/${installA}/assign-landline-number`,
        payload: { phone_number: '+12133734253' },
      },
      {
        method: 'POST',
        url: `/api/v1/installs/${installB}/purchase-phonenumber`,
        control: `/api/v1/installs/${installA}/check-number`,
        payload: { phone_number: '+12125550100' },
      },
      { method: 'DELETE', url: `/api/v1/numbers/${theirs}`, control: `/api/v1/numbers/${mine.id}` },
    ];
    for (const k of cases)
      await expectCrossTenant404(c.t, {
        token,
        method: k.method,
        url: k.url,
        ...(k.payload ? { payload: k.payload } : {}),
        control: {
          url: k.control,
          method: k.method === 'DELETE' ? 'GET' : k.method,
          ...(k.payload ? { payload: k.payload } : {}),
        },
        tables: TABLES,
      });
  });
});

describe('concurrent purchases', () => {
  it('two purchases for one install at once: one number bought, the other refused', async () => {
    const installC = await install(A().agency.id, A().business.id, 'Site C');
    const [x, y] = await search(718);
    const carrierBefore = sandbox().incomingNumbers.size;
    const buy = async (phone: string | undefined) =>
      c.api.post(await admin(), `/api/v1/installs/${installC}/purchase-phonenumber`, { phone_number: phone });
    const answers = await Promise.all([buy(x?.phone_number), buy(y?.phone_number)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    expect(sandbox().incomingNumbers.size).toBe(carrierBefore + 1);
    const stored = await rows(c.t, 'select id from numbers where install_id = $1 and released_at is null', [
      installC,
    ]);
    expect(stored).toHaveLength(1);
  });
});
