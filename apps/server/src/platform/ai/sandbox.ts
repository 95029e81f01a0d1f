// The local stand-in of an OpenAI-compatible chat-completions API (ADR 086), as the carrier and Stripe have
// their sandboxes: with no AI_BASE_URL the platform writes drafts itself, so `npm start` and the tests need
// no outside account. Deterministic: the same request gives the same draft, built from the user's prompt.

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };
export type ChatCompletionRequest = { model: string; messages: ChatMessage[]; max_tokens?: number };
export type ChatCompletionResponse = {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: { index: number; message: { role: 'assistant'; content: string }; finish_reason: 'stop' }[];
};

const OPENINGS: Record<string, string> = {
  friendly: 'Hi there!',
  professional: 'Hello,',
  short: '',
};

/** The answer of POST /v1/chat/completions for `request`: a draft that restates the last user message. */
export function sandboxChatCompletion(request: ChatCompletionRequest): ChatCompletionResponse {
  const user = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  const tone = /tone: (friendly|professional|short)/.exec(system)?.[1] ?? 'friendly';
  const subject = user.replace(/\s+/g, ' ').trim();
  const body =
    tone === 'short'
      ? `${subject}. Reply STOP to opt out.`
      : `${OPENINGS[tone]} ${subject}. Reply to this message if you have any questions. Reply STOP to opt out.`;
  return {
    id: 'chatcmpl-sandbox',
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: body.trim() }, finish_reason: 'stop' }],
  };
}
