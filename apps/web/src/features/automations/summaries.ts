import type { TBlock } from '@stn/contracts/automations';
import type { TFunction } from 'i18next';
import type { Draft } from './graph.ts';

// One line under each node's title: what the block or the trigger is set to, at a glance.

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function blockSummary(b: TBlock, t: TFunction): string {
  const c = b.config as Record<string, unknown>;
  switch (b.type) {
    case 'SendMessage':
      return clip(str(c.body)) || (c.template_id ? t('business.automations.summary.template') : '');
    case 'SendCall':
    case 'SendVoiceMail':
      return c.mode === 'recording' ? t('business.automations.summary.recording') : clip(str(c.text));
    case 'SendEmail':
      return clip(str(c.subject));
    case 'AddTag': {
      const add = Array.isArray(c.add) ? c.add.length : 0;
      const remove = Array.isArray(c.remove) ? c.remove.length : 0;
      return t('business.automations.summary.tags', { add, remove });
    }
    case 'Webhook':
      return clip(str(c.url));
    case 'Alert':
      return clip(str(c.message));
    case 'Wait':
      return t(`business.automations.durations.${str(c.unit) || 'seconds'}`, {
        count: Number(c.amount ?? 0),
      });
    case 'ProcessBetween':
      return `${str(c.from)}–${str(c.to)}`;
    case 'Condition':
      return t(`business.automations.conditions.${str(c.kind) || 'replied'}`);
    case 'AddToAutomation':
      return c.automation_id ? `#${String(c.automation_id)}` : '';
    case 'CollectContactData':
      return clip(str(c.question));
  }
}

export function triggerSummary(d: Draft, t: TFunction): string {
  const c = d.trigger.config as Record<string, unknown>;
  switch (d.trigger.kind) {
    case 'birthday':
    case 'anniversary':
      return t('business.automations.summary.at_hour', { hour: Number(c.hour ?? 9) });
    case 'date':
      return str(c.at) ? new Date(str(c.at)).toLocaleString() : '';
    case 'sms-keyword':
      return Array.isArray(c.keywords) ? clip(c.keywords.join(', ')) : '';
    default:
      return '';
  }
}
