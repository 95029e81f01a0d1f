// Calendar invitations for the inbox's send-ics (ADR 034): an RFC 5545 file with one event, stored under
// the public uploads (the file store, ADR 040) at an unguessable name so that the contact's phone can open
// the link.
import crypto from 'node:crypto';
import type { FileStore } from '../../platform/files.ts';

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

/** Stores the file as ics/<businessId>/<random>.ics in the file store and answers its /uploads URL. */
export async function storeIcs(storage: FileStore, businessId: number, content: string): Promise<string> {
  const name = `${crypto.randomBytes(16).toString('hex')}.ics`;
  return storage.put(`ics/${businessId}/${name}`, content, 'text/calendar; charset=utf-8');
}
