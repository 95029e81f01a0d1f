import type { TAutomationProblem } from '@stn/contracts/automations';
import { i18next, issueText } from '../../lib/i18n.ts';

// A problem's message as text: the check in the browser gives locale keys (`automations.*`, the server's
// texts in packages/contracts/locales), a refused save gives the server's sentence already translated.

const KEY = /^[a-z_]+(\.[a-z0-9_]+)+(\|.*)?$/i;

export function problemText(p: Pick<TAutomationProblem, 'message' | 'field'>): string {
  if (!KEY.test(p.message)) return p.message;
  const key = p.message.split('|')[0] ?? p.message;
  if (!i18next.exists(key))
    return i18next.t('business.automations.problem_unknown', { field: p.field ?? '' });
  return issueText(p.message, p.field ? p.field.split('.') : []);
}
