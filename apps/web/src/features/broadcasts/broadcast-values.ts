import type { UseFormReturnType } from '@mantine/form';
import type { TBroadcast, TBroadcastAudience, TBroadcastRequest } from '@stn/contracts/broadcasts';
import { isoToZoned, zonedToIso } from './zoned-time.ts';

// The create/edit form's values and how they become the contract's request (ZBroadcastRequest). Selects
// hold ids as strings (Mantine's), the schedule is a date and a time in the business's time zone.

export type PickedMedia = { id: number; url: string; name: string };

export type BroadcastValues = {
  name: string;
  broadcaster_ids: string[];
  tag_ids: string[];
  exclude_tag_ids: string[];
  install_ids: string[];
  /** Picked on the contacts screen (its bulk action "Broadcast"), or kept from the broadcast. */
  contact_ids: number[];
  body: string;
  template_id: string | null;
  media: PickedMedia[];
  when: 'now' | 'later';
  date: string;
  time: string;
};

export type BroadcastForm = UseFormReturnType<BroadcastValues>;

/** Where the server's 422 fields are shown in this form (the request's names -> the form's). */
export const SERVER_FIELDS: Record<string, string> = {
  name: 'name',
  body: 'body',
  media_ids: 'media',
  template_id: 'template_id',
  broadcaster_ids: 'broadcaster_ids',
  send_at: 'date',
  audience: 'audience',
  'audience.tag_ids': 'tag_ids',
  'audience.exclude_tag_ids': 'exclude_tag_ids',
  'audience.install_ids': 'install_ids',
  'audience.contact_ids': 'audience',
};

const ids = (values: string[]) => values.map(Number);

export function audienceOf(v: BroadcastValues): TBroadcastAudience {
  return {
    tag_ids: ids(v.tag_ids),
    exclude_tag_ids: ids(v.exclude_tag_ids),
    install_ids: ids(v.install_ids),
    contact_ids: v.contact_ids,
  };
}

export function isEmptyAudience(a: TBroadcastAudience): boolean {
  return a.tag_ids.length + a.install_ids.length + a.contact_ids.length === 0;
}

export function sendAtOf(v: BroadcastValues, timeZone: string): string | null {
  return v.when === 'later' ? zonedToIso(v.date, v.time, timeZone) : null;
}

export function toRequest(v: BroadcastValues, timeZone: string, start: boolean): TBroadcastRequest {
  return {
    name: v.name,
    body: v.body,
    media_ids: v.media.map((m) => m.id),
    template_id: v.template_id ? Number(v.template_id) : null,
    audience: audienceOf(v),
    broadcaster_ids: ids(v.broadcaster_ids),
    send_at: sendAtOf(v, timeZone),
    start,
  };
}

const strings = (values: number[]) => values.map(String);

/**
 * A form's first values: empty, or a broadcast's (edit), or a copy of one (duplicate: named by `name`).
 * `media` are the broadcast's images matched to the library's ids (the request takes ids, the broadcast
 * answers urls).
 */
export function valuesOf(
  b: TBroadcast | null,
  opts: { name?: string; contactIds?: number[]; media?: PickedMedia[] },
): BroadcastValues {
  const zoned = b?.send_at ? isoToZoned(b.send_at, b.time_zone) : null;
  return {
    name: opts.name ?? b?.name ?? '',
    broadcaster_ids: strings(b?.broadcaster_ids ?? []),
    tag_ids: strings(b?.audience.tag_ids ?? []),
    exclude_tag_ids: strings(b?.audience.exclude_tag_ids ?? []),
    install_ids: strings(b?.audience.install_ids ?? []),
    contact_ids: opts.contactIds ?? b?.audience.contact_ids ?? [],
    body: b?.body ?? '',
    template_id: b?.template_id ? String(b.template_id) : null,
    media: opts.media ?? [],
    when: zoned ? 'later' : 'now',
    date: zoned?.date ?? '',
    time: zoned?.time ?? '',
  };
}
