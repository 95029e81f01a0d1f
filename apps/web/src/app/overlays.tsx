import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';

/**
 * Toasts and confirm dialogs, beside the routes rather than around them: their code (Mantine's modal,
 * focus trap, scroll lock and transitions) is a chunk of its own, off the first load (ADR 060). Screens
 * open them through `notifications.show` and `modals.open*`, which need no context: a toast raised
 * before this is mounted waits in the store, and a layout shows only once this chunk is in (router.tsx),
 * so no confirm dialog is asked for before it can open.
 */
export default function Overlays() {
  return (
    <>
      <Notifications position="bottom-center" autoClose={5000} />
      <ModalsProvider />
    </>
  );
}
