// The widget's pure logic: settings with defaults, texts per language, the visitor's checks, the
// schedule's days in the visitor's zone, and the loader's trigger labels kept equal to the contracts'.
import { WIDGET_TEXT_DEFAULTS } from '@stn/contracts/widget';
import { describe, expect, it } from 'vitest';
import { defaultMode, readable, TRIGGER_LABELS, triggerSpecs } from '../triggers.ts';
import {
  callView,
  each,
  fill,
  groupSlots,
  readSettings,
  text,
  tokenVerified,
  validEmail,
  validName,
} from './logic.ts';

const config = (settings: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  id: 7,
  business_name: 'Bright Dental',
  widget_type: 3 as const,
  open_now: true,
  logo: null,
  widget_icon: null,
  settings,
  ...more,
});

describe('settings', () => {
  it('fills every default and refuses bad values (a bad colour or number is the default)', () => {
    const s = readSettings({
      colors: { primary: 'red' },
      styling: { MaxWidth: 5 },
      languageList: ['es', 'xx'],
    });
    expect(s.primary).toBe('#2991D1');
    expect(s.styling.maxWidth).toBe(500);
    expect(s.languageList).toEqual(['en', 'es']);
    expect(s.language).toBe('en');
    expect(s.input.name).toBe(true);
    expect(s.input.email).toBe(false);
    expect(s.callbackSeconds).toBe(14);
    expect(readSettings(null).language).toBe('en');
  });

  it("offers the install's language first, always, then the list's, each once", () => {
    expect(readSettings({ language: 'es', languageList: ['en'] }).languageList).toEqual(['es', 'en']);
    expect(readSettings({ language: 'en', languageList: ['en'] }).languageList).toEqual(['en']);
    expect(readSettings({ language: 'br', languageList: ['es', 'br', 'es'] }).languageList).toEqual([
      'br',
      'es',
    ]);
    expect(readSettings({ language: 'es' }).languageList).toEqual(['es']);
  });

  it('redirects only to an http(s) address, and only when enabled', () => {
    expect(
      readSettings({ response: { IsEnableRedirect: true, RedirectUrl: 'https://a.example/t' } }).response
        .redirect,
    ).toBe('https://a.example/t');
    expect(
      readSettings({ response: { IsEnableRedirect: true, RedirectUrl: 'javascript:alert(1)' } }).response
        .redirect,
    ).toBeNull();
    expect(
      readSettings({ response: { IsEnableRedirect: false, RedirectUrl: 'https://a.example' } }).response
        .redirect,
    ).toBeNull();
  });
});

describe('texts', () => {
  it("are the install's for the language, else the built-in ones", () => {
    const s = readSettings({ texts: { es: { CallLabel: 'Llámenos ya', title: '  ' } } });
    expect(text(s, 'es', 'CallLabel')).toBe('Llámenos ya');
    expect(text(s, 'es', 'title')).toBe(WIDGET_TEXT_DEFAULTS.es.title);
    expect(text(s, 'en', 'CallLabel')).toBe('Call me back');
    expect(fill(text(s, 'en', 'call'), { seconds: 9 })).toBe('We are calling you back within 9 seconds.');
  });

  it('empty or odd texts never throw: they are the built-in ones', () => {
    const empty = readSettings({
      texts: { en: { title: '', CallLabel: '' } },
      language: 'es',
      languageList: ['en'],
    });
    expect(text(empty, 'en', 'title')).toBe(WIDGET_TEXT_DEFAULTS.en.title);
    expect(text(empty, 'es', 'title')).toBe(WIDGET_TEXT_DEFAULTS.es.title);
    expect(text(readSettings({ texts: { en: 'nope' } }), 'en', 'title')).toBe(WIDGET_TEXT_DEFAULTS.en.title);
    expect(text(readSettings({ texts: null }), 'es', 'SubmitCall')).toBe(WIDGET_TEXT_DEFAULTS.es.SubmitCall);
    expect(
      each(triggerSpecs(config({ texts: { en: { CallLabel: ' ' } }, language: 'es' }), 'en'), (t) => t.label),
    ).toEqual(['Call me back', 'Text us']);
  });

  it("the loader's trigger labels are the contracts' defaults", () => {
    for (const lang of ['en', 'es', 'br'] as const) {
      const d = WIDGET_TEXT_DEFAULTS[lang];
      expect(TRIGGER_LABELS[lang]).toEqual([d.CallLabel, d.MessageLabel, d.ScheduleLabel, d.LeadLabel]);
    }
  });
});

describe('trigger buttons and modes', () => {
  it('follow widget_type, with a schedule instead of a callback when closed', () => {
    const ids = (c: ReturnType<typeof config>, lang = 'en') =>
      each(triggerSpecs(c, lang), (t) => `stn-trigger-${t.mode}:${t.label}`);
    expect(ids(config({}))).toEqual(['stn-trigger-call:Call me back', 'stn-trigger-text:Text us']);
    expect(ids(config({}, { widget_type: 1 }))).toEqual(['stn-trigger-call:Call me back']);
    expect(ids(config({}, { widget_type: 2 }), 'es')).toEqual(['stn-trigger-text:Escríbenos']);
    expect(ids(config({}, { open_now: false }))).toEqual([
      'stn-trigger-schedule:Schedule a call',
      'stn-trigger-text:Text us',
    ]);
    expect(ids(config({ texts: { en: { MessageLabel: 'SMS us' } } }))).toEqual([
      'stn-trigger-call:Call me back',
      'stn-trigger-text:SMS us',
    ]);
    // The install's lead form (config.lead_form_id): a third trigger, whatever the widget_type.
    expect(ids(config({}, { lead_form_id: 7 }))).toEqual([
      'stn-trigger-call:Call me back',
      'stn-trigger-text:Text us',
      'stn-trigger-lead:Leave your details',
    ]);
    expect(
      ids(
        config({ texts: { es: { LeadLabel: 'Pide presupuesto' } } }, { widget_type: 2, lead_form_id: 7 }),
        'es',
      ),
    ).toEqual(['stn-trigger-text:Escríbenos', 'stn-trigger-lead:Pide presupuesto']);
    expect(ids(config({}, { widget_type: 1, lead_form_id: 3 }), 'br')).toEqual([
      'stn-trigger-call:Me ligue',
      'stn-trigger-lead:Deixe seus dados',
    ]);
    expect(ids(config({}, { lead_form_id: null }))).toHaveLength(2);
    expect(defaultMode(config({}, { widget_type: 2 }))).toBe('text');
    expect(defaultMode(config({}, { open_now: false }))).toBe('schedule');
  });
});

describe('visitor checks', () => {
  it('a validated name has two letters and no digits', () => {
    expect(validName('Jo')).toBe(true);
    expect(validName('José Ñúñez')).toBe(true);
    expect(validName('J')).toBe(false);
    expect(validName('R2D2')).toBe(false);
  });

  it('an e-mail has a local part, a domain and a dot', () => {
    expect(validEmail('ann@example.com')).toBe(true);
    expect(validEmail('ann@example')).toBe(false);
    expect(validEmail('ann example.com')).toBe(false);
  });
});

describe('slots', () => {
  it("are grouped by the visitor's day and labelled in their zone", () => {
    const slots = ['2026-03-02T22:00:00Z', '2026-03-02T22:30:00Z', '2026-03-03T15:00:00Z'];
    // In New York, 22:00Z is 5 PM on Monday; in Madrid, 11 PM the same day; in Tokyo, Tuesday 7 AM.
    const ny = groupSlots(slots, 'en', 'America/New_York');
    expect(each(ny, (d) => d.label)).toEqual(['Monday, March 2', 'Tuesday, March 3']);
    expect(each(ny[0]?.slots ?? [], (s) => s.label)).toEqual(['5:00 PM', '5:30 PM']);
    const tokyo = groupSlots(slots, 'es', 'Asia/Tokyo');
    expect(each(tokyo, (d) => d.slots.length)).toEqual([2, 1]);
    expect(tokyo[0]?.label).toBe('martes, 3 de marzo');
    expect(tokyo[0]?.slots[0]).toEqual({ at: '2026-03-02T22:00:00Z', label: '7:00' });
    expect(groupSlots(['not a date'], 'en', 'UTC')).toEqual([]);
  });
});

describe('readable colours', () => {
  it("keep the install's background when its text is readable on it, else darken or lighten it to 4.5:1", () => {
    expect(readable('#1a4f8b', '#FFFFFF')).toBe('#1a4f8b');
    // The spec's default blue with white text is 3.5:1: the same hue, darker.
    const darker = readable('#2991D1', '#FFFFFF');
    expect(darker).not.toBe('#2991D1');
    expect(Number.parseInt(darker.slice(1, 3), 16)).toBeLessThan(0x29);
    // Dark text on a dark background: lightened.
    expect(Number.parseInt(readable('#333333', '#000000').slice(1, 3), 16)).toBeGreaterThan(0x33);
    expect(readable('red', '#FFFFFF')).toBe('red');
  });
});

describe("the callback's progress as shown", () => {
  it('never says "within 0 seconds", and a missed call is only missed, in the error colour', () => {
    expect(callView({ seconds: 9, status: 'finding' })).toEqual({
      title: true,
      countdown: 'seconds',
      tone: null,
    });
    expect(callView({ seconds: 0, status: 'finding' })).toEqual({
      title: true,
      countdown: 'soon',
      tone: null,
    });
    expect(callView({ seconds: 3, status: 'calling_you' }).countdown).toBeNull();
    expect(callView({ seconds: 0, status: 'missed' })).toEqual({ title: false, countdown: null, tone: 'ko' });
  });

  it('reads whether a visitor token says the phone was proven', () => {
    const token = (claims: object) => `v1.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`;
    expect(tokenVerified(token({ i: 1, c: 2, v: 1 }))).toBe(true);
    expect(tokenVerified(token({ i: 1, c: 2 }))).toBe(false);
    expect(tokenVerified('garbage')).toBe(false);
    expect(tokenVerified(null)).toBe(false);
  });
});
