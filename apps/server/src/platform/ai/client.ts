// Chat completions for AI drafts (ADR 086): the OpenAI-compatible API at AI_BASE_URL through the outbound
// URL guard, or the in-process stand-in (./sandbox.ts) when none is set.
//
// The base address is the operator's own setting, like CARRIER_SANDBOX_URL or S3_ENDPOINT, never a URL
// from a tenant: its origin is the one the guard lets through although it may be private or loopback (a
// self-hosted model next to the server). The guard still checks the scheme, refuses redirects, limits the
// answer's size and times the exchange out; the key goes to that origin only.
import type { Config } from '../config.ts';
import { createOutbound, type Outbound } from '../outbound/guard.ts';
import { type ChatCompletionRequest, type ChatMessage, sandboxChatCompletion } from './sandbox.ts';

/** The API could not be reached, refused, or answered something that is not a completion. */
export class AiUnavailableError extends Error {
  override name = 'AiUnavailableError';
}

export type AiClient = { complete(messages: ChatMessage[], maxTokens: number): Promise<string> };

const AI_TIMEOUT_MS = 30_000;
const AI_MAX_BYTES = 1024 * 1024;

type Completion = { choices?: { message?: { content?: unknown } }[] };

function remoteClient(ai: Config['ai'] & { baseUrl: string }, outbound: Outbound): AiClient {
  return {
    async complete(messages, maxTokens) {
      const request: ChatCompletionRequest = { model: ai.model, messages, max_tokens: maxTokens };
      let res: Awaited<ReturnType<Outbound['fetch']>>;
      try {
        res = await outbound.fetch(`${ai.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          credentials: ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {},
          body: JSON.stringify(request),
          maxBytes: AI_MAX_BYTES,
          timeoutMs: AI_TIMEOUT_MS,
          maxRedirects: 0,
        });
      } catch (err) {
        throw new AiUnavailableError(`AI API unreachable: ${(err as Error).message}`);
      }
      if (res.status < 200 || res.status >= 300)
        throw new AiUnavailableError(`AI API answered ${res.status}`);
      let content: unknown;
      try {
        content = (JSON.parse(res.body.toString('utf8')) as Completion).choices?.[0]?.message?.content;
      } catch {
        content = undefined;
      }
      if (typeof content !== 'string' || content.trim() === '')
        throw new AiUnavailableError('AI API answered no completion');
      return content;
    },
  };
}

const standIn: AiClient = {
  async complete(messages) {
    const answer = sandboxChatCompletion({ model: 'sandbox', messages });
    return answer.choices[0]?.message.content ?? '';
  },
};

// One client per configuration: the guard's allowed origin is the configured base's.
const clients = new WeakMap<Config, AiClient>();

export function aiClientFor(config: Config): AiClient {
  let c = clients.get(config);
  if (!c) {
    const baseUrl = config.ai.baseUrl;
    c = baseUrl
      ? remoteClient({ ...config.ai, baseUrl }, createOutbound({ allowOrigins: [new URL(baseUrl).origin] }))
      : standIn;
    clients.set(config, c);
  }
  return c;
}
