// A real SMTP server on 127.0.0.1 for tests (smtp-server): it keeps what it receives. With `auth`, only that
// user name and password may sign in; without, no sign-in is asked. STARTTLS is off (plain SMTP on loopback).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { from: string; to: string[]; raw: string };

export type SmtpSink = {
  port: number;
  /** Every message received, in order. */
  received: ReceivedMail[];
  close(): Promise<void>;
};

export async function startSmtpSink(auth?: { user: string; pass: string }): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...(auth
      ? {
          allowInsecureAuth: true,
          onAuth(a, _session, callback) {
            if (a.username === auth.user && a.password === auth.pass) callback(null, { user: auth.user });
            else callback(new Error('Invalid username or password'));
          },
        }
      : { authOptional: true }),
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
