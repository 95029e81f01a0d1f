import { AI_DRAFT_MAX_CHARS, AI_DRAFTS_PER_MONTH, type TAiDraftRequest } from '@stn/contracts/ai';
import { and, eq, sql } from 'drizzle-orm';
import { aiClientFor } from '../../platform/ai/client.ts';
import type { ChatMessage } from '../../platform/ai/sandbox.ts';
import { AppError, forbidden } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { planOfAgency } from '../billing/service.ts';
import { businessAiAccess } from '../businesses/service.ts';
import { aiUsage } from './tables.ts';

// AI drafts (issue 25, ADR 086): a draft of a text, a template or a broadcast from the user's prompt, by an
// OpenAI-compatible chat-completions API, for a business whose AI switch is on and whose plan has
// AiIntegration, within a monthly number of drafts.

/** The calendar month (UTC) a draft counts in. */
export const usageMonth = (now: Date) => now.toISOString().slice(0, 7);

const KIND_TEXT: Record<TAiDraftRequest['kind'], string> = {
  text: 'a one-to-one SMS text to a customer',
  template: 'a reusable SMS message template',
  broadcast: 'an SMS broadcast to many customers',
};

function messagesFor(input: TAiDraftRequest): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        `You write ${KIND_TEXT[input.kind]} for a small business.`,
        `tone: ${input.tone ?? 'friendly'}`,
        `Answer with the message text only, at most ${AI_DRAFT_MAX_CHARS} characters, no quotes.`,
        input.kind === 'text' ? '' : 'Merge fields such as {first_name} may be used.',
      ]
        .filter(Boolean)
        .join('\n'),
    },
    { role: 'user', content: input.prompt },
  ];
}

/** The context's business may use AI drafts: its AI switch is on and its plan (when it has one) allows. */
async function checkAccess(ctx: Ctx): Promise<number> {
  const b = await businessAiAccess(ctx);
  if (!b.aiEnabled) throw forbidden('integrations.ai_disabled');
  // A business without a plan (made by its agency by hand) has what its agency switched on.
  if (b.planId !== null) {
    const plan = await planOfAgency(ctx, { agencyId: b.agencyId, planId: b.planId });
    if (!plan?.features.AiIntegration) throw forbidden('integrations.ai_not_in_plan');
  }
  return b.businessId;
}

/**
 * Takes one draft of the month, atomically (two requests at the last draft cannot both have it); a 429 and
 * nothing taken past the limit.
 */
async function takeDraft(ctx: Ctx, businessId: number, month: string) {
  const rows = await ctx.db
    .insert(aiUsage)
    .values({ business_id: businessId, month, count: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.business_id, aiUsage.month],
      set: { count: sql`${aiUsage.count} + 1` },
      setWhere: sql`${aiUsage.count} < ${AI_DRAFTS_PER_MONTH}`,
    })
    .returning({ count: aiUsage.count });
  if (rows.length === 0)
    throw new AppError(
      'TOO_MANY',
      'integrations.ai_limit',
      undefined,
      { limit: AI_DRAFTS_PER_MONTH },
      'ai.limit',
    );
}

/** Gives a draft back when none was written (the API failed): a failure costs the business nothing. */
async function giveBack(ctx: Ctx, businessId: number, month: string) {
  await ctx.db
    .update(aiUsage)
    .set({ count: sql`greatest(${aiUsage.count} - 1, 0)` })
    .where(and(eq(aiUsage.business_id, businessId), eq(aiUsage.month, month)));
}

/** At most `max` UTF-16 units, never half a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A draft for the context's business. Throws AiUnavailableError (given back) when the API fails. */
export async function generateDraft(ctx: Ctx, input: TAiDraftRequest, now = new Date()) {
  const businessId = await checkAccess(ctx);
  const month = usageMonth(now);
  await takeDraft(ctx, businessId, month);
  try {
    const text = await aiClientFor(ctx.deps.config).complete(messagesFor(input), 800);
    return { draft: clip(text.trim(), AI_DRAFT_MAX_CHARS) };
  } catch (err) {
    await giveBack(ctx, businessId, month);
    throw err;
  }
}

/** Whether a business has its own e-mail (the profile's `has_integrations`, ADR 090). */
export { hasOwnMail } from './mail-service.ts';

/** Zapier's client secret as the token endpoint checks it (the CLI's zapier:client prints it). */
export { zapierSecretOf } from './zapier.ts';
