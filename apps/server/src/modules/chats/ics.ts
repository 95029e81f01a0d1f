// Calendar invitations for the inbox's send-ics (ADR 034): an RFC 5545 file with one event, stored under
// the public uploads folder at an unguessable name so that the contact's phone can open the link.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type IcsEvent = {
  uid: string;
  title: string;
  start: Date;
  end: Date;
  description: string;
  location?: string | undefined;
  now: Date;
};

/** 20260105T140000Z */
const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
const text = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets are folded: CRLF and a space (RFC 5545 §3.1), never inside a character. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length === 0 ? 75 : 74)) {
      out.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

export function icsOf(e: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Start Texting Now//Inbox//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${stamp(e.now)}`,
    `DTSTART:${stamp(e.start)}`,
    `DTEND:${stamp(e.end)}`,
    `SUMMARY:${text(e.title)}`,
    ...(e.description ? [`DESCRIPTION:${text(e.description)}`] : []),
    ...(e.location ? [`LOCATION:${text(e.location)}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** Writes the file under <dataDir>/uploads/ics/<businessId>/ and answers its path below /uploads. */
export async function storeIcs(dataDir: string, businessId: number, content: string): Promise<string> {
  const name = `${crypto.randomBytes(16).toString('hex')}.ics`;
  const dir = path.join(dataDir, 'uploads', 'ics', String(businessId));
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), content, 'utf8');
  return `/uploads/ics/${businessId}/${name}`;
}
