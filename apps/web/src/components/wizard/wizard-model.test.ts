import { describe, expect, it } from 'vitest';
import {
  backIndex,
  clampIndex,
  indicatorIndex,
  indicatorSteps,
  isLastStep,
  nextIndex,
  type WizardStepModel,
} from './wizard-model.ts';

// The install wizard's shape: step 3a (phone number) is a child of step 3 (calls).
const STEPS: WizardStepModel[] = [
  { key: 'website' },
  { key: 'type' },
  { key: 'calls' },
  { key: 'number', parent: 'calls' },
  { key: 'hours' },
  { key: 'look' },
  { key: 'review' },
];

describe('wizard model', () => {
  it('counts only steps without a parent in the indicator', () => {
    expect(indicatorSteps(STEPS).map((s) => s.key)).toEqual([
      'website',
      'type',
      'calls',
      'hours',
      'look',
      'review',
    ]);
  });

  it('keeps the indicator on the parent while a child step is shown', () => {
    expect(indicatorIndex(STEPS, 2)).toBe(2);
    expect(indicatorIndex(STEPS, 3)).toBe(2);
    expect(indicatorIndex(STEPS, 4)).toBe(3);
    expect(indicatorIndex(STEPS, 6)).toBe(5);
  });

  it('places a child of an unknown parent on the previous top-level step', () => {
    const steps = [{ key: 'a' }, { key: 'b', parent: 'missing' }, { key: 'c' }];
    expect(indicatorIndex(steps, 1)).toBe(0);
    expect(indicatorIndex(steps, 2)).toBe(1);
  });

  it('moves on only from a valid step', () => {
    expect(nextIndex(STEPS, 0, false)).toBe(0);
    expect(nextIndex(STEPS, 0, true)).toBe(1);
    expect(nextIndex(STEPS, 2, true)).toBe(3);
  });

  it('has no Next on the last step: it is the one that confirms', () => {
    expect(isLastStep(STEPS, 6)).toBe(true);
    expect(isLastStep(STEPS, 5)).toBe(false);
    expect(nextIndex(STEPS, 6, true)).toBe(6);
  });

  it('goes back one step, never before the first', () => {
    expect(backIndex(3)).toBe(2);
    expect(backIndex(0)).toBe(0);
  });

  it('reopens at a stored step within bounds', () => {
    expect(clampIndex(STEPS, 4)).toBe(4);
    expect(clampIndex(STEPS, 99)).toBe(6);
    expect(clampIndex(STEPS, -2)).toBe(0);
    expect(clampIndex(STEPS, null)).toBe(0);
    expect(clampIndex(STEPS, Number.NaN)).toBe(0);
  });
});
