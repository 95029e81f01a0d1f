// SendVoiceMail (ADR 071): a voicemail drop at the block's time (`at`, HH:MM) in its time zone (spec §9
// default 09:00 America/Los_Angeles): reached at another time, the step waits (durably) for the next such
// time; then the contact is called with the carrier's answering-machine detection set to wait for the
// greeting's end (the beep), so the message is left on the voicemail (a person who answers hears it too).
// In the sandbox a phone set to answer as its voicemail hears "[voicemail greeting]" and then the message.
import { AUTOMATION_DEFAULTS, type TActionConfig } from '@stn/contracts/automations';
import { isTimeZone, localParts } from '@stn/contracts/installs';
import { callContact, isPlaced } from './calls.ts';
import type { ActionExecutor } from './types.ts';

const MINUTE = 60_000;

/**
 * The next instant at or after the start of `now`'s minute when the clock in `timeZone` reads `at`
 * (HH:MM), DST changes included. A day without that time (the hour skipped in spring) gives the same
 * clock time an hour later.
 */
export function nextLocalTime(now: Date, at: string, timeZone: string): Date {
  const [h = 0, m = 0] = at.split(':').map(Number);
  const target = h * 60 + m;
  const start = Math.floor(now.getTime() / MINUTE) * MINUTE;
  let delta = (target - localParts(new Date(start), timeZone).minutes + 1440) % 1440;
  let candidate = start + delta * MINUTE;
  // Across a DST change the offset moves: correct by what the clock then reads (at most twice).
  for (let i = 0; i < 2; i++) {
    const reads = localParts(new Date(candidate), timeZone).minutes;
    if (reads === target) break;
    delta = (target - reads + 1440) % 1440;
    candidate += (delta > 720 ? delta - 1440 : delta) * MINUTE;
    if (candidate < start) candidate += 1440 * MINUTE;
  }
  return new Date(candidate);
}

export const sendVoiceMailAction: ActionExecutor = async (input) => {
  const { now, step } = input;
  const c = input.config as TActionConfig<'SendVoiceMail'>;
  const timeZone = isTimeZone(c.time_zone) ? c.time_zone : AUTOMATION_DEFAULTS.voicemail.time_zone;
  if (typeof step.detail.drop_at !== 'string') {
    const dropAt = nextLocalTime(now, c.at, timeZone);
    if (dropAt.getTime() - now.getTime() > MINUTE)
      return {
        kind: 'wait',
        until: dropAt,
        detail: { drop_at: dropAt.toISOString(), at: c.at, time_zone: timeZone },
      };
  }
  const placed = await callContact(input, c, { voicemail: true });
  if (!isPlaced(placed)) return placed;
  return {
    kind: 'next',
    detail: {
      // The drop time; not what a failed attempt said.
      ...Object.fromEntries(
        Object.entries(step.detail).filter(([k]) => !['refused', 'message', 'unclear_since'].includes(k)),
      ),
      call_sid: placed.sid,
      from: placed.from,
      to: placed.to,
      said: placed.said,
      placed_at: now.toISOString(),
      ...(placed.recovered ? { recovered: true } : {}),
    },
    vars: { call_sid: placed.sid },
  };
};
