import { LEAD_LANGUAGES } from '@stn/contracts/lead-form-public';
import { i18next, issueText } from '../../lib/i18n.ts';

// A problem's message as text: the builder's own check gives locale keys (`validation.*`, `leadforms.*`,
// the server's texts in packages/contracts/locales), a refused save the server's sentence, already in the
// user's language.

const KEY = /^[a-z_]+(\.[a-z0-9_]+)+(\|.*)?$/i;

export function problemText(message: string, path: string): string {
  if (!KEY.test(message)) return message;
  const key = message.split('|')[0] ?? message;
  if (!i18next.exists(key)) return message;
  // `label.es` names the label: the language is where it is shown, not the field's name.
  const parts = path.split('.').filter((p) => !(LEAD_LANGUAGES as readonly string[]).includes(p));
  return issueText(message, parts);
}
