// The auth module mails the links of changes other modules make (ADR 050): users asks for an e-mail
// change in its transaction, and the confirmation link and the notice to the old address go out after
// commit.
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { emailChangeRequested } from '../users/service.ts';
import { mailEmailChange } from './service.ts';

export function registerAuthListeners(events: EventBus, deps: Deps): void {
  events.on(emailChangeRequested, (payload) =>
    mailEmailChange(linkHolderContext(deps, 'email_change.mail'), payload),
  );
}
