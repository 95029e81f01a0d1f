// The own-mail settings (ADR 090): validated at start, with SendGrid's in-process stand-in and no SMTP
// exceptions by default.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { MailTransportError, sendgridFor, verifySmtp } from './mail-transport.ts';

describe('own-mail settings', () => {
  it('default to the SendGrid stand-in and no SMTP host let through', () => {
    expect(loadConfig({}).ownMail).toEqual({ sendgridBaseUrl: undefined, smtpAllow: [] });
  });
  it('take a SendGrid base without its trailing slash and a list of host:port', () => {
    const c = loadConfig({
      SENDGRID_BASE_URL: 'https://api.sendgrid.example/',
      OWN_MAIL_SMTP_ALLOW: '127.0.0.1:2525, Mail.Local:25',
    });
    expect(c.ownMail).toEqual({
      sendgridBaseUrl: 'https://api.sendgrid.example',
      smtpAllow: ['127.0.0.1:2525', 'mail.local:25'],
    });
  });
  it('refuse a base that is not http(s) and an entry that is not host:port', () => {
    expect(() => loadConfig({ SENDGRID_BASE_URL: 'ftp://x.example.com' })).toThrow(
      /SENDGRID_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ OWN_MAIL_SMTP_ALLOW: 'http://127.0.0.1:25' })).toThrow(ConfigError);
  });
});

describe('the SendGrid stand-in and the SMTP address check', () => {
  it("accepts keys shaped like SendGrid's and refuses others", async () => {
    const sg = sendgridFor(loadConfig({}));
    await expect(sg.checkKey('SG.abcdef.ghijk')).resolves.toBeUndefined();
    await expect(sg.checkKey('not-a-key')).rejects.toBeInstanceOf(MailTransportError);
  });
  it('refuses link-local, private and loopback SMTP hosts before connecting', async () => {
    for (const host of ['169.254.169.254', '192.168.1.10', '::1', '127.0.0.1'])
      await expect(
        verifySmtp(loadConfig({}), { host, port: 25, security: 'none', username: '', password: '' }),
      ).rejects.toMatchObject({ kind: 'address' });
  });
});
