import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A form's button bar: an optional action on the left, then cancel (back to `cancelTo`) and save. */
export function FormActions(props: {
  submitting: boolean;
  submitTestId: string;
  cancelTo?: string;
  onCancel?: () => void;
  submitLabel?: string;
  left?: ReactNode;
}) {
  const { t } = useTranslation();
  const cancel = props.cancelTo ? (
    <Button variant="default" component={Link} to={props.cancelTo}>
      {t('common.cancel')}
    </Button>
  ) : props.onCancel ? (
    <Button variant="default" onClick={props.onCancel}>
      {t('common.cancel')}
    </Button>
  ) : null;
  return (
    <Group justify={props.left ? 'space-between' : 'flex-end'}>
      {props.left && <div>{props.left}</div>}
      <Group>
        {cancel}
        <Button type="submit" loading={props.submitting} data-testid={props.submitTestId}>
          {props.submitLabel ?? t('common.save')}
        </Button>
      </Group>
    </Group>
  );
}
