import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18next } from '../../lib/i18n.ts';

/** Asks before a destructive row action (delete, archive); `testId` names the confirm button. */
export function confirmAction(props: {
  title: string;
  text: string;
  confirm: string;
  /** The dismiss button; "Cancel" in the user's language unless given. */
  cancel?: string;
  onConfirm: () => void;
  /** Called when the dialog is closed without confirming. */
  onCancel?: () => void;
  testId?: string;
  color?: string;
}) {
  modals.openConfirmModal({
    title: props.title,
    children: <Text size="sm">{props.text}</Text>,
    labels: { confirm: props.confirm, cancel: props.cancel ?? i18next.t('common.cancel') },
    confirmProps: { color: props.color ?? 'red', 'data-testid': props.testId ?? 'confirm-ok' } as Record<
      string,
      string
    >,
    onConfirm: props.onConfirm,
    ...(props.onCancel ? { onCancel: props.onCancel, onClose: props.onCancel } : {}),
  });
}

/**
 * Asks before a row is deleted. `keys` are the locale keys of the title, the text (given `vars`) and the
 * confirm button; `testId` names the confirm button.
 */
export function askDelete(
  [title, text, confirm]: readonly [string, string, string],
  vars: Record<string, string | number>,
  onConfirm: () => void,
  testId?: string,
) {
  const texts = { title: i18next.t(title), text: i18next.t(text, vars), confirm: i18next.t(confirm) };
  confirmAction({ ...texts, onConfirm, testId });
}
