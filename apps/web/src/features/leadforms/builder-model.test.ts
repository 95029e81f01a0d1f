import { describe, expect, it } from 'vitest';
import {
  firstProblem,
  freshId,
  locate,
  move,
  newDraft,
  newQuestion,
  newStep,
  problemsOf,
  retype,
  serverProblems,
  testIdOf,
  withLanguages,
} from './builder-model.ts';

describe('the lead form builder draft', () => {
  it('starts from the starter form with every default, named by nobody yet', () => {
    const d = newDraft(['en']);
    expect(d.name).toBe('');
    expect(d.styling.Padding).toBe(20);
    expect(d.styling.MaxWidth).toBe(500);
    expect(d.steps[0]?.questions.map((q) => q.id)).toEqual(['name', 'phone', 'email']);
    // Only the missing name stands between it and a save.
    expect(Object.keys(problemsOf(d))).toEqual(['name']);
  });

  it('gives new steps, questions and options ids not yet used', () => {
    expect(freshId('q', ['q-1', 'q-3'])).toBe('q-4');
    expect(freshId('q', ['q-3', 'x'])).toBe('q-4');
    const d = newDraft();
    const q = newQuestion(d, 'choice');
    expect(q.options.map((o) => o.id)).toEqual(['o-1', 'o-2']);
    expect(d.steps.flatMap((s) => s.questions.map((x) => x.id))).not.toContain(q.id);
    expect(newStep(d).id).toBe('step-2');
  });

  it('a changed type drops what only the old type had', () => {
    const d = newDraft();
    const choice = { ...newQuestion(d, 'choice'), is_allow_multi_select: true };
    const text = retype(choice, 'short_text');
    expect(text.options).toEqual([]);
    expect(text.is_allow_multi_select).toBe(false);
    expect(retype(text, 'choice').options).toHaveLength(2);
    expect(retype({ ...newQuestion(d, 'consent'), tag_id: 4 }, 'short_text').tag_id).toBeNull();
  });

  it('moves an item up or down, and nothing out of bounds', () => {
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });

  it('a new language asks for every label in it; the starter questions get their words', () => {
    const d = { ...newDraft(['en']), name: 'Quote' };
    d.steps[0]?.questions.push({ ...newQuestion(d, 'short_text'), label: { en: 'Budget' } });
    const two = withLanguages(d, ['es', 'en']);
    expect(two.languages).toEqual(['en', 'es']);
    expect(two.steps[0]?.questions[0]?.label.es).toBe('Tu nombre');
    expect(problemsOf(two)).toEqual({ 'steps.0.questions.3.label.es': 'validation.required' });
    // Removing a language keeps its words: adding it back brings them again.
    const back = withLanguages(withLanguages(two, ['en']), ['en', 'es']);
    expect(back.steps[0]?.questions[0]?.label.es).toBe('Tu nombre');
    expect(withLanguages(d, [])).toBe(d);
  });

  it('finds the form problems of the contracts check and of each field', () => {
    const d = { ...newDraft(['en']), name: 'Quote' };
    const phone = d.steps[0]?.questions[1];
    if (phone) phone.required = false;
    d.styling.Padding = 500;
    const problems = problemsOf(d);
    expect(problems['steps.0.questions.1.required']).toBe('leadforms.phone_required');
    expect(problems['styling.Padding']).toBeDefined();
  });

  it('places a problem in its step and language, and picks the first in page order', () => {
    expect(locate('steps.2.questions.1.options.0.label.es')).toEqual({ step: 2, lang: 'es' });
    expect(locate('texts.br.thanks')).toEqual({ step: null, lang: 'br' });
    expect(locate('name')).toEqual({ step: null, lang: null });
    expect(
      firstProblem({
        'steps.10.questions.0.label.en': 'x',
        'steps.2.questions.0.label.es': 'x',
        texts: 'x',
      }),
    ).toBe('steps.2.questions.0.label.es');
    expect(firstProblem({ 'steps.0.title.en': 'x', name: 'x' })).toBe('name');
    expect(firstProblem({})).toBeNull();
  });

  it("reads a 422's errors as one message per path", () => {
    expect(serverProblems({ 'steps.0.questions.1.label.es': ['Required', 'Other'], x: [] })).toEqual({
      'steps.0.questions.1.label.es': 'Required',
    });
    expect(serverProblems(undefined)).toEqual({});
  });
});

describe('the field a problem names', () => {
  it.each([
    ['name', 'lf-name'],
    ['steps', 'lf-steps'],
    ['steps.1.questions', 'lf-step-1'],
    ['steps.1.title.es', 'lf-step-1-title-es'],
    ['steps.0.questions.1.label.es', 'lf-q-0-1-label-es'],
    ['steps.0.questions.1.required', 'lf-q-0-1-required'],
    ['steps.0.questions.1.map_to', 'lf-q-0-1-map'],
    ['steps.0.questions.1.id', 'lf-q-0-1'],
    ['steps.2.questions.0.options', 'lf-q-2-0-options'],
    ['steps.2.questions.0.options.1.label.br', 'lf-opt-2-0-1-label-br'],
    ['steps.2.questions.0.options.1.tag_id', 'lf-opt-2-0-1-tag'],
    ['styling.Padding', 'lf-style-Padding'],
    ['texts.es.thanks', 'lf-text-thanks-es'],
    ['tag_ids.0', 'lf-tags'],
  ])('%s → %s', (path, id) => {
    expect(testIdOf(path)).toBe(id);
  });
});
