import { describe, expect, it } from 'vitest';
import {
  checkLeadAnswers,
  checkLeadForm,
  publicLeadForm,
  starterLeadForm,
  ZLeadFormRequest,
} from './leadforms.ts';
import { widgetPhoneToE164 } from './widget-phone.ts';

describe('lead form contracts', () => {
  it('the starter form parses and passes the check in every language it names', () => {
    const form = ZLeadFormRequest.parse({ ...starterLeadForm(['en', 'es']), name: 'Quote' });
    expect(checkLeadForm(form)).toEqual({});
    expect(form.styling.Padding).toBe(20);
    expect(form.styling.MaxWidth).toBe(500);
  });

  it('a missing translation, a lone option, no phone and a duplicate id are each named at their place', () => {
    const form = ZLeadFormRequest.parse({
      name: 'x',
      languages: ['en', 'es'],
      steps: [
        {
          id: 's1',
          questions: [
            { id: 'a', type: 'short_text', label: { en: 'A' } },
            {
              id: 'a',
              type: 'choice',
              label: { en: 'B', es: 'B' },
              options: [{ id: 'o', label: { en: 'O', es: 'O' } }],
            },
          ],
        },
      ],
    });
    expect(checkLeadForm(form)).toEqual({
      'steps.0.questions.0.label.es': 'validation.required',
      'steps.0.questions.1.id': 'leadforms.question_duplicate',
      'steps.0.questions.1.options': 'leadforms.choice_options',
      steps: 'leadforms.phone_missing',
    });
  });

  it('answers: required, phone in E.164, e-mail, one option unless several are allowed, consent ticked', () => {
    const form = publicLeadForm({
      id: 1,
      ...ZLeadFormRequest.parse({
        name: 'x',
        steps: [
          {
            id: 's',
            questions: [
              { id: 'p', type: 'phone', label: { en: 'P' }, required: true, map_to: 'phone' },
              { id: 'e', type: 'email', label: { en: 'E' } },
              {
                id: 'c',
                type: 'choice',
                label: { en: 'C' },
                options: [
                  { id: 'x', label: { en: 'X' } },
                  { id: 'y', label: { en: 'Y' } },
                ],
              },
              { id: 'k', type: 'consent', label: { en: 'OK?' }, required: true },
            ],
          },
        ],
      }),
    });
    const bad = checkLeadAnswers(form, { p: '12', e: 'nope', c: ['x', 'y'], k: false }, widgetPhoneToE164);
    expect(bad.errors).toEqual({
      p: 'validation.phone',
      e: 'validation.email',
      c: 'validation.invalid',
      k: 'validation.consent',
    });
    const good = checkLeadAnswers(
      form,
      { p: '(415) 555-0142', e: 'A@B.co', c: 'y', k: true },
      widgetPhoneToE164,
    );
    expect(good).toEqual({ errors: {}, values: { p: '+14155550142', e: 'a@b.co', c: ['y'], k: true } });
  });
});
