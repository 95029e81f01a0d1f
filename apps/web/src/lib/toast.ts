import { notifications } from '@mantine/notifications';

// Spec 000 §9: the notification plugin shows toasts for 5000 ms at the bottom.
export const TOAST_MS = 5000;

export function toastError(message: string) {
  notifications.show({ color: 'red', message, autoClose: TOAST_MS, position: 'bottom-center' });
}

export function toastSuccess(message: string) {
  notifications.show({ color: 'green', message, autoClose: TOAST_MS, position: 'bottom-center' });
}
