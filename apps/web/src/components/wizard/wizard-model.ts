// The multi-step wizard of spec 000 §4 as plain functions (the component in wizard.tsx only draws them):
// steps with a validity check, Back and Next, completion; a step with a parent does not advance the
// indicator (it shows as its parent); the last step offers Confirm instead of Next.

export type WizardStepModel = {
  key: string;
  /** The step this one belongs to (a sub-step such as 3a of step 3): the indicator stays on the parent. */
  parent?: string;
};

/** The top-level steps: the ones the indicator counts. */
export function indicatorSteps<S extends WizardStepModel>(steps: readonly S[]): S[] {
  return steps.filter((s) => !s.parent);
}

/** The indicator's position for the step at `index`: a child step shows its parent's position. */
export function indicatorIndex(steps: readonly WizardStepModel[], index: number): number {
  const step = steps[index];
  if (!step) return 0;
  const top = indicatorSteps(steps);
  const key = step.parent ?? step.key;
  const at = top.findIndex((s) => s.key === key);
  if (at >= 0) return at;
  // A child of an unknown parent: the last top-level step before it.
  return Math.max(0, indicatorSteps(steps.slice(0, index)).length - 1);
}

export const isLastStep = (steps: readonly unknown[], index: number) => index >= steps.length - 1;

/** Next's target: the following step, only when the current one is valid; the last step has no Next. */
export function nextIndex(steps: readonly unknown[], index: number, valid: boolean): number {
  if (!valid || isLastStep(steps, index)) return index;
  return index + 1;
}

/** Back's target: the previous step (the first has none). */
export const backIndex = (index: number) => Math.max(0, index - 1);

/** Where a wizard reopened at a saved step starts: within the steps, whatever was stored. */
export function clampIndex(steps: readonly unknown[], index: number | null | undefined): number {
  if (index === null || index === undefined || !Number.isFinite(index)) return 0;
  return Math.min(Math.max(0, Math.trunc(index)), Math.max(0, steps.length - 1));
}
