import { defaultInstallSettings } from '@stn/contracts/installs';
import { describe, expect, it } from 'vitest';
import {
  AGENTS_REQUIRED,
  allErrors,
  clockOptions,
  formField,
  HOURS_ORDER,
  type InstallValues,
  LEAD_FORM_REQUIRED,
  sectionErrors,
  sectionSettings,
  valuesOf,
} from './install-values.ts';

// The checks behind the wizard's Next and the edit screen's Save per section.
const key = (message: string) => message;

function values(patch: Partial<InstallValues['settings']> = {}): InstallValues {
  return {
    name: 'Bright Dental website',
    website: 'https://brightdental.example',
    settings: { ...defaultInstallSettings(), ...patch },
  };
}

describe('install values', () => {
  it('starts a new install at the defaults of spec 000 §9', () => {
    const v = valuesOf(null);
    expect(v.settings.timeout).toBe(60);
    expect(v.settings.colors.primary).toBe('#2991D1');
    expect(v.settings.hours.monday).toEqual({ open: true, from: '08:00AM', to: '05:00PM' });
    expect(v.settings.hours.sunday.open).toBe(false);
    expect(v.settings.wizard_step).toBeNull();
  });

  it('a widget showing a lead form needs the form; the section saves only its two settings', () => {
    expect(sectionErrors('lead', values({ is_enable_lead_form: true, lead_form_id: null }), key)).toEqual({
      'settings.lead_form_id': LEAD_FORM_REQUIRED,
    });
    expect(sectionErrors('lead', values({ is_enable_lead_form: true, lead_form_id: 4 }), key)).toEqual({});
    // Off, a form may stay picked (or none be).
    expect(sectionErrors('lead', values({ is_enable_lead_form: false, lead_form_id: null }), key)).toEqual(
      {},
    );
    expect(sectionSettings('lead', values({ is_enable_lead_form: true, lead_form_id: 4 }).settings)).toEqual({
      is_enable_lead_form: true,
      lead_form_id: 4,
    });
  });

  it('needs a name and a website', () => {
    expect(sectionErrors('website', { ...values(), name: ' ', website: '' }, key)).toEqual({
      name: 'validation.required',
      website: 'validation.required',
    });
    expect(sectionErrors('website', values(), key)).toEqual({});
  });

  it("refuses a staff phone in the wrong format with the spec's message", () => {
    const v = values({ phoneAgents: [{ user_id: null, name: 'Front desk', phone: '+1123' }] });
    expect(sectionErrors('calls', v, key)).toEqual({ 'settings.phoneAgents.0.phone': 'validation.phone' });
    const ok = values({ phoneAgents: [{ user_id: null, name: 'Front desk', phone: '+12133734253' }] });
    expect(sectionErrors('calls', ok, key)).toEqual({});
  });

  it('asks for a staff phone when the widget takes calls, not when it only takes texts', () => {
    expect(sectionErrors('calls', values({ widget_type: 3 }), key)).toEqual({
      'settings.phoneAgents': AGENTS_REQUIRED,
    });
    expect(sectionErrors('calls', values({ widget_type: 2 }), key)).toEqual({});
  });

  it('refuses a timeout the server refuses (under 10 s)', () => {
    const v = values({ timeout: 5, phoneAgents: [{ user_id: null, name: 'A', phone: '+12133734253' }] });
    expect(Object.keys(sectionErrors('calls', v, key))).toEqual(['settings.timeout']);
  });

  it("wants an open day's 'from' before its 'to'", () => {
    const v = values();
    v.settings.hours.monday = { open: true, from: '05:00PM', to: '08:00AM' };
    expect(sectionErrors('hours', v, key)).toEqual({ 'settings.hours.monday.to': HOURS_ORDER });
    v.settings.hours.monday.open = false;
    expect(sectionErrors('hours', v, key)).toEqual({});
  });

  it('refuses a colour that is not #RRGGBB', () => {
    const v = values();
    v.settings.colors = { ...v.settings.colors, primary: 'blue' };
    expect(Object.keys(sectionErrors('look', v, key))).toEqual(['settings.colors.primary']);
  });

  it('checks every section before Confirm', () => {
    const v = { ...values(), name: '' };
    expect(Object.keys(allErrors(v, key)).sort()).toEqual(['name', 'settings.phoneAgents']);
  });

  it("saves a section's slice of the settings only", () => {
    expect(Object.keys(sectionSettings('hours', values().settings)).sort()).toEqual(['hours', 'timezone']);
    expect(sectionSettings('website', values().settings)).toEqual({});
  });

  it('checks and saves the widget settings of the new sections: languages, fields, answer, texts', () => {
    const v = values();
    v.settings.languageList = [];
    expect(Object.keys(sectionErrors('type', v, key))).toEqual(['settings.languageList']);
    expect(Object.keys(sectionSettings('type', values().settings)).sort()).toEqual([
      'language',
      'languageList',
      'widget_type',
    ]);
    const r = values();
    r.settings.response = { ...r.settings.response, IsEnableRedirect: true, RedirectUrl: 'not a url' };
    expect(sectionErrors('response', r, key)).toEqual({ 'settings.response.RedirectUrl': 'validation.url' });
    r.settings.response.RedirectUrl = 'https://brightdental.example/thanks';
    expect(sectionErrors('response', r, key)).toEqual({});
    expect(Object.keys(sectionSettings('fields', values().settings)).sort()).toEqual([
      'gdpr_consent',
      'input',
      'promotion_consent',
    ]);
    const m = values();
    m.settings.margins = { x: 20, y: 900 };
    m.settings.popup = { auto: true, delay: -1 };
    expect(Object.keys(sectionErrors('look', m, key)).sort()).toEqual([
      'settings.margins.y',
      'settings.popup.delay',
    ]);
    expect(sectionSettings('texts', { ...values().settings, texts: { es: { title: 'Hola' } } })).toEqual({
      texts: { es: { title: 'Hola' } },
    });
  });

  it("places the server's field messages on the form's fields", () => {
    expect(formField('name')).toBe('name');
    expect(formField('settings.timeout')).toBe('settings.timeout');
    expect(formField('phoneAgents.0.phone')).toBe('settings.phoneAgents.0.phone');
  });

  it('offers the clock every half hour in the spec format', () => {
    const clock = clockOptions();
    expect(clock).toHaveLength(48);
    expect(clock[0]).toBe('12:00AM');
    expect(clock).toContain('08:00AM');
    expect(clock).toContain('05:00PM');
    expect(clock[47]).toBe('11:30PM');
  });
});
