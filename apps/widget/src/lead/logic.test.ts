import { LEAD_TEXT_DEFAULTS, type TLeadFormPublic } from '@stn/contracts/lead-form-public';
import { describe, expect, it } from 'vitest';
import { contrast } from '../shared.ts';
import { firstError, hasType, leadText, leadUi, leadVars, serverErrors } from './logic.ts';

const q = (id: string, type = 'short_text') => ({
  id,
  type: type as 'short_text',
  label: { en: id },
  placeholder: {},
  required: false,
  is_allow_multi_select: false,
  options: [],
});
const form: TLeadFormPublic = {
  id: 1,
  name: 'Quote',
  languages: ['en', 'es'],
  steps: [
    { id: 's1', title: {}, questions: [q('name'), q('phone', 'phone')] },
    { id: 's2', title: {}, questions: [q('service', 'choice')] },
    { id: 's3', title: {}, questions: [q('when', 'date'), q('ok', 'consent')] },
  ],
  styling: {
    Padding: 20,
    MaxWidth: 500,
    BackgroundColor: '#FFFFFF',
    BorderColor: '#DDDDDD',
    Color: '#333333',
    ButtonColor: '#2991D1',
    ButtonTextColor: '#FFFFFF',
    Roudness: 8,
  },
  texts: { en: { title: 'Get a quote', next: ' ' }, es: {} },
};

describe('lead form texts', () => {
  it("the form's own words, else the built-in ones of the language", () => {
    expect(leadText(form, 'en', 'title')).toBe('Get a quote');
    expect(leadText(form, 'en', 'next')).toBe(LEAD_TEXT_DEFAULTS.en.next);
    expect(leadText(form, 'es', 'title')).toBe(LEAD_TEXT_DEFAULTS.es.title);
    expect(leadText({ texts: {} }, 'br', 'thanks')).toBe(LEAD_TEXT_DEFAULTS.br.thanks);
  });

  it('the step indicator in each language', () => {
    expect(leadUi('en', 'step', 1, 3)).toBe('Step 1 of 3');
    expect(leadUi('es', 'step', 2, 3)).toBe('Paso 2 de 3');
    expect(leadUi('br', 'step', 3, 3)).toBe('Etapa 3 de 3');
  });
});

describe('where refusals go', () => {
  it("the server's 422 by question, the rest apart", () => {
    expect(
      serverErrors({
        'answers.phone': ['Wrong phone number format!!'],
        'answers.when': ['Please enter a date.', 'second'],
        form_id: ['This value is invalid.'],
      }),
    ).toEqual({
      byQuestion: { phone: 'Wrong phone number format!!', when: 'Please enter a date.' },
      rest: 'This value is invalid.',
    });
    expect(serverErrors({})).toEqual({ byQuestion: {}, rest: '' });
  });

  it('the first error in the form’s order (not the answer’s), with its step', () => {
    expect(firstError(form, { ok: 'x', service: 'y' })).toEqual({ step: 1, question: 'service' });
    expect(firstError(form, { when: 'x', phone: 'y' })).toEqual({ step: 0, question: 'phone' });
    expect(firstError(form, { gone: 'x' })).toBeNull();
    expect(firstError(form, {})).toBeNull();
  });

  it('which steps have a phone question (the phone check is loaded for them)', () => {
    expect(hasType(form, 'phone')).toBe(true);
    expect(hasType(form, 'phone', [0])).toBe(true);
    expect(hasType(form, 'phone', [1, 2])).toBe(false);
  });
});

describe('the look', () => {
  const vars = (s: string) => Object.fromEntries(s.split(';').map((d) => d.split(':') as [string, string]));

  it("the form's styling as custom properties, defaults for what is absent or bad", () => {
    const v = vars(leadVars({ ...form.styling, Padding: 32, MaxWidth: 9999, Color: 'red', Roudness: 0 }));
    expect(v['--lp']).toBe('32px');
    expect(v['--lw']).toBe('500px');
    expect(v['--lr']).toBe('0px');
    expect(v['--lc']).toBe('#333333');
    expect(v['--lbg']).toBe('#FFFFFF');
    expect(vars(leadVars(undefined))['--lp']).toBe('20px');
  });

  it('buttons readable (the default blue deepened), in the install’s colours when asked', () => {
    const v = vars(leadVars(form.styling));
    expect(contrast(v['--lb'] as string, '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
    const own = vars(leadVars(form.styling, { background: '#0D47A1', color: '#FFFFFF' }));
    expect(own['--lb']).toBe('#0D47A1');
    expect(own['--lbt']).toBe('#FFFFFF');
    const dark = vars(leadVars({ ...form.styling, BackgroundColor: '#111111' }));
    expect(contrast(dark['--le'] as string, '#111111')).toBeGreaterThanOrEqual(4.5);
  });
});
