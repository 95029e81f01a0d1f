import { Button, Group, Paper, Stack, Stepper, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  backIndex,
  indicatorIndex,
  indicatorSteps,
  isLastStep,
  nextIndex,
  type WizardStepModel,
} from './wizard-model.ts';

export type WizardStep = WizardStepModel & {
  label: string;
  /** Shown under the label in the indicator and above the step's fields. */
  description?: string;
  content: ReactNode;
  /** The step's validity check: shows its messages and answers whether Next may move on. */
  validate?: () => boolean;
};

type Props = {
  steps: WizardStep[];
  /** The step shown (controlled, so a caller may reopen a wizard at a saved step). */
  active: number;
  onChange: (index: number) => void;
  /**
   * Runs after a valid step's Next, before moving on (saving what was typed); answering false stays on
   * the step. A rejection stays too, with the values as typed.
   */
  beforeNext?: (index: number) => Promise<boolean>;
  /** The last step's Confirm. */
  onConfirm: () => Promise<unknown> | undefined;
  confirmLabel?: string;
  testId?: string;
};

/**
 * The generic multi-step wizard (spec 000 §4): an indicator over the top-level steps (a child step keeps
 * its parent lit), the current step's content, Back and Next (Next only from a valid step), and Confirm on
 * the last step. The rules live in wizard-model.ts, with their tests.
 */
export function Wizard({ steps, active, onChange, beforeNext, onConfirm, confirmLabel, testId }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const step = steps[active];
  const top = indicatorSteps(steps);
  const last = isLastStep(steps, active);

  const next = async () => {
    const valid = step?.validate ? step.validate() : true;
    const target = nextIndex(steps, active, valid);
    if (target === active) return;
    if (beforeNext) {
      setBusy(true);
      try {
        if (!(await beforeNext(active))) return;
      } catch {
        return;
      } finally {
        setBusy(false);
      }
    }
    onChange(target);
  };

  const confirm = async () => {
    if (step?.validate && !step.validate()) return;
    setBusy(true);
    try {
      await onConfirm();
    } catch {
      // The caller shows the error; the values stay.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack data-testid={testId}>
      <Stepper active={indicatorIndex(steps, active)} size="sm" allowNextStepsSelect={false}>
        {top.map((s, i) => (
          <Stepper.Step key={s.key} label={s.label} data-testid={`wizard-indicator-${i}`} />
        ))}
      </Stepper>
      <Paper withBorder p="lg" radius="md" data-testid={`wizard-step-${step?.key}`}>
        <Stack>
          {step?.description && (
            <Text size="sm" c="dimmed">
              {step.description}
            </Text>
          )}
          {step?.content}
        </Stack>
      </Paper>
      <Group justify="space-between">
        <Button
          variant="default"
          onClick={() => onChange(backIndex(active))}
          disabled={active === 0 || busy}
          data-testid="wizard-back"
        >
          {t('wizard.back')}
        </Button>
        {last ? (
          <Button onClick={() => void confirm()} loading={busy} data-testid="wizard-confirm">
            {confirmLabel ?? t('wizard.confirm')}
          </Button>
        ) : (
          <Button onClick={() => void next()} loading={busy} data-testid="wizard-next">
            {t('wizard.next')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
