import { z } from './zod.ts';

// AI drafts (issue 25; spec 001 POST /v1/businesses/generate-ai-content): a draft of a text, a template or
// a broadcast written by an OpenAI-compatible chat-completions API from the user's prompt (ADR 086).

/** What the draft is for: a one-to-one text, a message template or a broadcast. */
export const AI_DRAFT_KINDS = ['text', 'template', 'broadcast'] as const;
export const AI_DRAFT_TONES = ['friendly', 'professional', 'short'] as const;
/** A draft is at most a multi-part text (ten 160-character segments). */
export const AI_DRAFT_MAX_CHARS = 1600;
/** Drafts a business may ask for per calendar month (UTC). */
export const AI_DRAFTS_PER_MONTH = 200;

export const ZAiDraftRequest = z.object({
  kind: z.enum(AI_DRAFT_KINDS),
  prompt: z.string().trim().min(1).max(1000),
  tone: z.enum(AI_DRAFT_TONES).optional(),
});
export type TAiDraftRequest = z.infer<typeof ZAiDraftRequest>;

export const ZAiDraftResponse = z.object({
  success: z.literal(true),
  data: z.object({ draft: z.string().max(AI_DRAFT_MAX_CHARS) }),
});
export type TAiDraftResponse = z.infer<typeof ZAiDraftResponse>;
