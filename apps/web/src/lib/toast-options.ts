// Spec 000 §9: the notification plugin (the API client's answers) shows toasts for 5000 ms at the
// bottom; a toast a screen raises itself (a check in the browser, no call) lasts 2500 ms.
export const TOAST_MS = 5000;
export const COMPONENT_TOAST_MS = 2500;

export type ToastKind = 'notification' | 'component';

export function toastOptions(kind: ToastKind, color: 'red' | 'green', message: string) {
  return kind === 'notification'
    ? { color, message, autoClose: TOAST_MS, position: 'bottom-center' as const }
    : { color, message, autoClose: COMPONENT_TOAST_MS };
}
