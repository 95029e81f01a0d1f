// AddTag (ADR 071): adds and removes tags of the contact through the contacts service, in the step's
// transaction. A tag added is announced (`contact.tagged`, after the commit) exactly as the contact
// screen's tagging announces it, so a "new-tag" automation can follow on. A tag deleted since the block
// was saved is passed over and named on the step; a contact deleted meanwhile fails the step (the journey
// goes on). One call of contacts' `changeContactTags` (a few statements: ADR 068's bench does thousands a
// second).
import type { TActionConfig } from '@stn/contracts/automations';
import { notFound } from '../../../platform/http/errors.ts';
import { changeContactTags } from '../../contacts/service.ts';
import { refusalOf } from './merge.ts';
import type { ActionExecutor } from './types.ts';

export const addTagAction: ActionExecutor = async ({ ctx, contact, config }) => {
  const c = config as TActionConfig<'AddTag'>;
  const done = await changeContactTags(ctx, {
    id: contact.id,
    add: c.add,
    remove: c.remove,
    known: contact.tag_ids,
  });
  if (!done) {
    const reason = refusalOf(notFound()) ?? 'errors.not_found';
    return { kind: 'fail', error: reason, continueRun: true, detail: { refused: reason } };
  }
  const { added, removed, missing, tag_ids } = done;
  return {
    kind: 'next',
    detail: { added, removed, ...(missing.length ? { missing } : {}), tags: tag_ids },
  };
};
