import { notifications } from '@mantine/notifications';
import { toastOptions } from './toast-options.ts';

// The API client's toasts (the notification plugin of spec 000 §9: 5000 ms, bottom).

export function toastError(message: string) {
  notifications.show(toastOptions('notification', 'red', message));
}

export function toastSuccess(message: string) {
  notifications.show(toastOptions('notification', 'green', message));
}

/** A toast a screen raises itself, not an API answer (spec 000 §9: 2500 ms). */
export function toastNote(message: string, color: 'red' | 'green' = 'red') {
  notifications.show(toastOptions('component', color, message));
}
