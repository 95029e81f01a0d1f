// How a business's own mail leaves (ADR 090): an SMTP account through nodemailer, or SendGrid's v3 API.
//
// SMTP: the host a user typed is resolved here and every address checked by the outbound guard's rule
// (isPublicAddress: no loopback, private, link-local...), unless the operator listed that `host:port` in
// OWN_MAIL_SMTP_ALLOW (a test's local server); nodemailer then connects to the very address checked (no
// second lookup), with the host name kept for TLS. Short timeouts: a check answers the user's request.
//
// SendGrid: at SENDGRID_BASE_URL through the outbound guard, that origin trusted as the operator's setting
// (like AI_BASE_URL, ADR 086); unset, an in-process stand-in accepts keys that look like SendGrid's
// (`SG.` ...) and keeps what it "sent" in memory, so a laptop and the tests need no SendGrid account.
import dns from 'node:dns';
import net from 'node:net';
import nodemailer from 'nodemailer';
import type { Config } from '../../platform/config.ts';
import { createOutbound, isPublicAddress, type Outbound } from '../../platform/outbound/guard.ts';

/** The connection or the key was refused; `reason` is a short text for the user, `kind` the rule. */
export class MailTransportError extends Error {
  override name = 'MailTransportError';
  constructor(
    readonly kind: 'address' | 'connect' | 'auth' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

export type SmtpSettings = {
  host: string;
  port: number;
  security: 'none' | 'starttls' | 'tls';
  username: string;
  password: string;
};

export type OutgoingMail = {
  from: { email: string; name: string };
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html?: string | null;
};

const SMTP_TIMEOUT_MS = 10_000;

/** The address to connect to, after the guard's rule; MailTransportError('address') when refused. */
async function smtpAddress(config: Config, host: string, port: number): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new MailTransportError('connect', `${host} could not be resolved`);
    }
  }
  const first = addresses[0];
  if (!first) throw new MailTransportError('connect', `${host} has no address`);
  const allowed = config.ownMail.smtpAllow.includes(`${host.toLowerCase()}:${port}`);
  if (!allowed && addresses.some((a) => !isPublicAddress(a)))
    throw new MailTransportError('address', `${host} resolves to a refused address`);
  return first;
}

async function smtpTransport(config: Config, s: SmtpSettings) {
  const address = await smtpAddress(config, s.host, s.port);
  const bare = s.host.replace(/^\[|\]$/g, '');
  return nodemailer.createTransport({
    host: address,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    ignoreTLS: s.security === 'none',
    ...(s.username || s.password ? { auth: { user: s.username, pass: s.password } } : {}),
    // The certificate is checked against the name the user typed, not the address connected to.
    tls: net.isIP(bare) ? {} : { servername: bare },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
}

/** A short reason from nodemailer's error, for the user (no stack, no server banner beyond one line). */
function reasonOf(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  if (e.code === 'EAUTH') return 'the user name or password was refused';
  if (e.code === 'ETIMEDOUT' || e.code === 'ETIMEOUT') return 'the server did not answer in time';
  if (e.code === 'ECONNREFUSED') return 'the server refused the connection';
  if (e.code === 'ESOCKET' || e.code === 'ECONNECTION')
    return `no connection (${(e.message ?? '').slice(0, 120)})`;
  return (e.message ?? String(err)).split('\n')[0]?.slice(0, 160) ?? 'unknown error';
}

/** Connects and signs in with the settings (nodemailer verify): throws MailTransportError when it fails. */
export async function verifySmtp(config: Config, s: SmtpSettings): Promise<void> {
  const transport = await smtpTransport(config, s);
  try {
    await transport.verify();
  } catch (err) {
    throw new MailTransportError(
      (err as { code?: string }).code === 'EAUTH' ? 'auth' : 'connect',
      reasonOf(err),
    );
  } finally {
    transport.close();
  }
}

/** Sends one message through the SMTP account; answers the server's message id. */
export async function sendSmtp(config: Config, s: SmtpSettings, mail: OutgoingMail): Promise<string | null> {
  const transport = await smtpTransport(config, s);
  try {
    const info = await transport.sendMail({
      from: { address: mail.from.email, name: mail.from.name },
      to: mail.to,
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
    });
    return typeof info.messageId === 'string' ? info.messageId : null;
  } catch (err) {
    throw new MailTransportError('connect', reasonOf(err));
  } finally {
    transport.close();
  }
}

// ---------------------------------------------------------------- SendGrid

export type SendgridClient = {
  /** Throws MailTransportError when SendGrid refuses the key or cannot be reached. */
  checkKey(apiKey: string): Promise<void>;
  /** POST /v3/mail/send; answers SendGrid's message id (X-Message-Id). */
  send(apiKey: string, mail: OutgoingMail): Promise<string | null>;
};

const SENDGRID_TIMEOUT_MS = 10_000;

function sendgridBody(mail: OutgoingMail) {
  return {
    personalizations: [{ to: [{ email: mail.to }] }],
    from: { email: mail.from.email, ...(mail.from.name ? { name: mail.from.name } : {}) },
    ...(mail.replyTo ? { reply_to: { email: mail.replyTo } } : {}),
    subject: mail.subject,
    content: [
      { type: 'text/plain', value: mail.text },
      ...(mail.html ? [{ type: 'text/html', value: mail.html }] : []),
    ],
  };
}

function remoteSendgrid(baseUrl: string, outbound: Outbound): SendgridClient {
  const call = async (apiKey: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    try {
      return await outbound.fetch(`${baseUrl}${path}`, {
        method,
        headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        credentials: { authorization: `Bearer ${apiKey}` },
        ...(body ? { body: JSON.stringify(body) } : {}),
        maxBytes: 256 * 1024,
        timeoutMs: SENDGRID_TIMEOUT_MS,
        maxRedirects: 0,
      });
    } catch (err) {
      throw new MailTransportError('connect', `SendGrid could not be reached (${(err as Error).message})`);
    }
  };
  return {
    async checkKey(apiKey) {
      const res = await call(apiKey, 'GET', '/v3/scopes');
      if (res.status === 401 || res.status === 403)
        throw new MailTransportError('auth', 'the API key was refused');
      if (res.status < 200 || res.status >= 300)
        throw new MailTransportError('refused', `SendGrid answered ${res.status}`);
      const scopes = (JSON.parse(res.body.toString('utf8') || '{}') as { scopes?: unknown }).scopes;
      if (Array.isArray(scopes) && !scopes.includes('mail.send'))
        throw new MailTransportError('auth', 'the API key may not send mail (no mail.send permission)');
    },
    async send(apiKey, mail) {
      const res = await call(apiKey, 'POST', '/v3/mail/send', sendgridBody(mail));
      if (res.status < 200 || res.status >= 300)
        throw new MailTransportError('refused', `SendGrid answered ${res.status}`);
      const id = res.headers['x-message-id'];
      return typeof id === 'string' ? id : null;
    },
  };
}

/** What the in-process stand-in accepted (a laptop's "sent" SendGrid mail), newest last, at most 200. */
export const sendgridStandInOutbox: (ReturnType<typeof sendgridBody> & { at: string })[] = [];
const STAND_IN_KEY = /^SG\.[\w-]{6,}(\.[\w-]+)?$/;

const standIn: SendgridClient = {
  async checkKey(apiKey) {
    if (!STAND_IN_KEY.test(apiKey)) throw new MailTransportError('auth', 'the API key was refused');
  },
  async send(apiKey, mail) {
    if (!STAND_IN_KEY.test(apiKey)) throw new MailTransportError('refused', 'SendGrid answered 401');
    sendgridStandInOutbox.push({ ...sendgridBody(mail), at: new Date().toISOString() });
    if (sendgridStandInOutbox.length > 200) sendgridStandInOutbox.shift();
    return `standin-${Date.now()}`;
  },
};

const clients = new WeakMap<Config, SendgridClient>();

/** The SendGrid client of this configuration: SENDGRID_BASE_URL through the guard, or the stand-in. */
export function sendgridFor(config: Config): SendgridClient {
  let c = clients.get(config);
  if (!c) {
    const base = config.ownMail.sendgridBaseUrl;
    c = base ? remoteSendgrid(base, createOutbound({ allowOrigins: [new URL(base).origin] })) : standIn;
    clients.set(config, c);
  }
  return c;
}
