// AddTag (ADR 071): adds and removes tags of the contact through the contacts service, in the step's
// transaction. A tag added is announced (`contact.tagged`, after the commit) exactly as the contact
// screen's tagging announces it, so a "new-tag" automation can follow on. A tag deleted since the block
// was saved is passed over and named on the step; a contact deleted meanwhile fails the step (the journey
// goes on).
import type { TActionConfig } from '@stn/contracts/automations';
import { checkTagIds, tagContact } from '../../contacts/service.ts';
import { refusalOf } from './merge.ts';
import type { ActionExecutor } from './types.ts';

/** Of these tag ids, those still tags of the business (the others: `missing`). */
async function liveTags(ctx: Parameters<ActionExecutor>[0]['ctx'], ids: number[]) {
  const live: number[] = [];
  const missing: number[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await checkTagIds(ctx, [id]);
      live.push(id);
    } catch (err) {
      if (refusalOf(err) === null) throw err;
      missing.push(id);
    }
  }
  return { live, missing };
}

export const addTagAction: ActionExecutor = async ({ ctx, contact, config }) => {
  const c = config as TActionConfig<'AddTag'>;
  const add = await liveTags(ctx, c.add);
  const remove = await liveTags(
    ctx,
    c.remove.filter((id) => !c.add.includes(id)),
  );
  const missing = [...add.missing, ...remove.missing];
  try {
    let tags = contact.tag_ids;
    if (add.live.length > 0) {
      const after = await tagContact(ctx, { id: contact.id, tag_ids: add.live, mode: 'add' });
      tags = after.tags.map((t) => t.id);
    }
    if (remove.live.length > 0) {
      const after = await tagContact(ctx, { id: contact.id, tag_ids: remove.live, mode: 'remove' });
      tags = after.tags.map((t) => t.id);
    }
    return {
      kind: 'next',
      detail: { added: add.live, removed: remove.live, ...(missing.length ? { missing } : {}), tags },
    };
  } catch (err) {
    const reason = refusalOf(err);
    if (reason === null) throw err;
    return { kind: 'fail', error: reason, continueRun: true, detail: { refused: reason } };
  }
};
