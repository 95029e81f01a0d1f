// Every block kind's executor (ADR 068): the engine looks the block's type up here.
import { addTagAction } from './add-tag.ts';
import { addToAutomationAction } from './add-to-automation.ts';
import { alertAction } from './alert.ts';
import { collectContactDataAction } from './collect-contact-data.ts';
import { conditionAction } from './condition.ts';
import { processBetweenAction } from './process-between.ts';
import { sendCallAction } from './send-call.ts';
import { sendEmailAction } from './send-email.ts';
import { sendMessageAction } from './send-message.ts';
import { sendVoiceMailAction } from './send-voicemail.ts';
import type { ActionRegistry } from './types.ts';
import { waitAction } from './wait.ts';
import { webhookAction } from './webhook.ts';

export const ACTIONS: ActionRegistry = {
  SendMessage: sendMessageAction,
  SendCall: sendCallAction,
  SendVoiceMail: sendVoiceMailAction,
  SendEmail: sendEmailAction,
  AddTag: addTagAction,
  Webhook: webhookAction,
  Alert: alertAction,
  Wait: waitAction,
  ProcessBetween: processBetweenAction,
  Condition: conditionAction,
  AddToAutomation: addToAutomationAction,
  CollectContactData: collectContactDataAction,
};
