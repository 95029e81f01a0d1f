// The auth module mails the links of changes other modules make (ADR 050): users asks for an e-mail
// change in its transaction, and the confirmation link and the notice to the old address go out after
// commit; likewise the invitation of a user created without a password and an address's confirmation
// link (users' `userInvited`, `verificationNeeded`, published by users, agencies and businesses).
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { emailChangeRequested, findUserByEmail, userInvited, verificationNeeded } from '../users/service.ts';
import { mailEmailChange, sendEmailVerification, sendInvitation } from './service.ts';

export function registerAuthListeners(events: EventBus, deps: Deps): void {
  events.on(emailChangeRequested, (payload) =>
    mailEmailChange(linkHolderContext(deps, 'email_change.mail'), payload),
  );
  events.on(userInvited, (payload) => sendInvitation(linkHolderContext(deps, 'invitation.mail'), payload));
  events.on(verificationNeeded, async (payload) => {
    const ctx = linkHolderContext(deps, 'verification.mail');
    const user = await findUserByEmail(ctx, payload.email);
    if (user) await sendEmailVerification(ctx, { user });
  });
}
