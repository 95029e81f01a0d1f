import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expect403, row, snapshot, useSuite } from '../../../test/helpers.ts';

// Uploads go to a folder of this file's own.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-biz-'));
const c = useSuite({ env: { DATA_DIR: dataDir }, sessions: true });
const TABLES = ['businesses', 'packages'];

// The smallest valid PNG (1x1).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
const pngUrl = `data:image/png;base64,${PNG.toString('base64')}`;

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const bizA = () => row(c.t, 'businesses', c.seed.a.business.id);

describe('PUT /v1/businesses/info', () => {
  it("updates the caller's business name, opt-out message and contact details, and no other business", async () => {
    const otherBefore = await row(c.t, 'businesses', c.seed.b.business.id);
    const res = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/info', {
      name: 'Business A Renamed',
      opt_out_msg: 'Reply STOP to opt out',
      phone: '+15125550100',
      timezone: 'America/Chicago',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Business information updated successfully.',
      data: { id: c.seed.a.business.id, name: 'Business A Renamed' },
    });
    expect(await bizA()).toMatchObject({
      name: 'Business A Renamed',
      opt_out_msg: 'Reply STOP to opt out',
      settings: { phone: '+15125550100', timezone: 'America/Chicago' },
    });
    expect(await row(c.t, 'businesses', c.seed.b.business.id)).toEqual(otherBefore);
  });

  it('answers 422 with the message and changes nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const res = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/info', { name: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual(['The name field is required']);
    const email = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/info', {
      name: 'X',
      email: 'nope',
    });
    expect(email.json().errors.email).toEqual(['The email must be a valid email address.']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is for the business admin only', async () => {
    for (const who of [c.s.a.businessUser, c.s.a.agencyAdmin, c.s.admin]) {
      await expect403(c.t, TABLES, who.token, 'PUT', '/v1/businesses/info', { name: 'Nope' });
    }
  });
});

describe('PUT /v1/businesses/report', () => {
  it('stores report e-mails and schedules (without repeats)', async () => {
    const res = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/report', {
      report_emails: ['Boss@Shop.test', 'ops@shop.test', 'boss@shop.test'],
      report_schedules: ['weekly', 'daily', 'weekly'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Report settings updated successfully.');
    expect(await bizA()).toMatchObject({
      report_emails: ['boss@shop.test', 'ops@shop.test'],
      report_schedules: ['weekly', 'daily'],
    });
  });

  it('GET /v1/businesses/info reads back what is stored, for the business admin only', async () => {
    const res = await c.call(c.s.a.businessAdmin.token, 'GET', '/v1/businesses/info');
    expect(res.statusCode, res.body).toBe(200);
    const stored = await bizA();
    expect(res.json().data).toMatchObject({
      id: c.seed.a.business.id,
      name: stored.name,
      report_emails: stored.report_emails,
      report_schedules: stored.report_schedules,
    });
    expect((await c.call(c.s.b.businessAdmin.token, 'GET', '/v1/businesses/info')).json().data.id).toBe(
      c.seed.b.business.id,
    );
    expect((await c.call(c.s.a.businessUser.token, 'GET', '/v1/businesses/info')).statusCode).toBe(403);
    expect((await c.call(c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/info')).statusCode).toBe(403);
  });

  it('refuses a bad e-mail or an unknown schedule, changing nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const bad = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/report', {
      report_emails: ['ok@shop.test', 'nope'],
      report_schedules: ['daily'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.report_emails).toEqual(['The report emails must be a valid email address.']);
    const schedule = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/report', {
      report_emails: [],
      report_schedules: ['hourly'],
    });
    expect(schedule.json().errors.report_schedules).toEqual(['The selected report schedules is invalid.']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is for the business admin only', async () => {
    await expect403(c.t, TABLES, c.s.a.businessUser.token, 'PUT', '/v1/businesses/report', {
      report_emails: [],
      report_schedules: [],
    });
  });
});

describe('PUT /v1/businesses/setting', () => {
  it('merges notification settings into what is stored', async () => {
    const first = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/setting', {
      notifications: { email_notifications: true, new_message: true, notification_emails: ['a@shop.test'] },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe('Notification settings updated successfully.');
    const second = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/setting', {
      notifications: { new_message: false },
    });
    expect(second.statusCode).toBe(200);
    expect((await bizA()).settings.notifications).toEqual({
      email_notifications: true,
      new_message: false,
      notification_emails: ['a@shop.test'],
    });
  });

  it('refuses a non-boolean switch, changing nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const res = await c.call(c.s.a.businessAdmin.token, 'PUT', '/v1/businesses/setting', {
      notifications: { new_task: 'often' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['notifications.new_task']).toEqual([
      'The new task field must be true or false.',
    ]);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('is for the business admin only', async () => {
    await expect403(c.t, TABLES, c.s.a.accountManager.token, 'PUT', '/v1/businesses/setting', {
      notifications: {},
    });
  });
});

describe('POST and DELETE /v1/businesses/image', () => {
  const dir = () => path.join(dataDir, 'uploads', 'businesses', String(c.seed.a.business.id));

  it('stores the logo under the data folder and its URL in the settings', async () => {
    const res = await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/businesses/image', {
      type: 'logo',
      data: pngUrl,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Image uploaded successfully.');
    const logo = (await bizA()).settings.logo as string;
    expect(logo).toMatch(new RegExp(`^/uploads/businesses/${c.seed.a.business.id}/logo\\.png\\?v=\\d+$`));
    expect(res.json().data.settings.logo).toBe(logo);
    expect(fs.readFileSync(path.join(dir(), 'logo.png')).equals(PNG)).toBe(true);
  });

  it('refuses what is not a raster image, changing nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const files = fs.readdirSync(dir());
    for (const data of [
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}`,
      'https://example.com/logo.png',
    ]) {
      const res = await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/businesses/image', {
        type: 'logo',
        data,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.data).toEqual(['The image must be a PNG, JPEG, GIF or WebP file.']);
    }
    const type = await c.call(c.s.a.businessAdmin.token, 'POST', '/v1/businesses/image', {
      type: 'banner',
      data: pngUrl,
    });
    expect(type.statusCode).toBe(422);
    expect(fs.readdirSync(dir())).toEqual(files);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('removes the logo file and its URL', async () => {
    const res = await c.call(c.s.a.businessAdmin.token, 'DELETE', '/v1/businesses/image/logo');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Image removed successfully.');
    expect((await bizA()).settings).not.toHaveProperty('logo');
    expect(fs.existsSync(path.join(dir(), 'logo.png'))).toBe(false);
    expect(
      (await c.call(c.s.a.businessAdmin.token, 'DELETE', '/v1/businesses/image/banner')).statusCode,
    ).toBe(422);
  });

  it('is for the business admin only', async () => {
    await expect403(c.t, TABLES, c.s.a.businessUser.token, 'POST', '/v1/businesses/image', {
      type: 'logo',
      data: pngUrl,
    });
    await expect403(c.t, TABLES, c.s.a.agencyAdmin.token, 'DELETE', '/v1/businesses/image/logo');
  });
});

describe('GET /v1/businesses/packages', () => {
  it("lists the active packages of the business's own agency", async () => {
    await c.t.pool.query(
      `insert into packages (agency_id, name, kind, quantity, price_cents, active) values
       ($1, 'A 500 texts', 'messages', 500, 1500, true),
       ($1, 'A off sale', 'calls', 100, 900, false),
       ($2, 'B 500 texts', 'messages', 500, 1000, true)`,
      [c.seed.a.agency.id, c.seed.b.agency.id],
    );
    const res = await c.call(c.s.a.businessAdmin.token, 'GET', '/v1/businesses/packages');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.packages.map((p: { name: string }) => p.name)).toEqual(['A 500 texts']);
    const b = await c.call(c.s.b.businessAdmin.token, 'GET', '/v1/businesses/packages');
    expect(b.json().data.packages.map((p: { name: string }) => p.name)).toEqual(['B 500 texts']);
  });

  it("is the BusinessAdmin's, whose menu shows packages (capability packages.buy)", async () => {
    await expect403(c.t, TABLES, c.s.a.agencyAdmin.token, 'GET', '/v1/businesses/packages');
    // Other business roles have no packages screen, so the call is not theirs either (issue 8).
    await expect403(c.t, TABLES, c.s.a.businessUser.token, 'GET', '/v1/businesses/packages');
  });
});
