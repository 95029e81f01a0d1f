import { auth } from './auth-store.ts';
import { queryClient } from './query-client.ts';
import { toastError, toastSuccess } from './toast.ts';

/** The envelope's machine-readable error code; screens branch on it, never on the translated message. */
export type ApiErrorCode =
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'TOO_MANY'
  | 'CONFLICT'
  | 'BAD_REQUEST'
  | 'SERVER'
  /** No answer at all: the network or the server is down. */
  | 'NETWORK';

const CODE_OF_STATUS: Record<number, ApiErrorCode> = {
  0: 'NETWORK',
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION',
  429: 'TOO_MANY',
};

type ErrorBody = { message?: string; errors?: Record<string, string[]>; type?: number; code?: string };
/** An answer's envelope as far as the client reads it (the data is the caller's). */
type AnswerBody = ErrorBody & { success?: boolean };

export class ApiError extends Error {
  /** The envelope's `code`, or the one its status implies when an answer has none (a proxy's 502). */
  readonly code: ApiErrorCode;
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.code = (body?.code as ApiErrorCode | undefined) ?? CODE_OF_STATUS[status] ?? 'SERVER';
  }
  /** The first message of a field, for showing next to it. */
  field(name: string): string | undefined {
    return this.body?.errors?.[name]?.[0];
  }
}

let language = 'en';
export function setApiLanguage(lang: string) {
  language = lang;
}

let onUnauthorized: () => void = () => undefined;
/** What a 401 does (log out and go to sign-in), set by the app shell. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

type Options = {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  silent?: boolean;
  /** Aborts the call (a `cancellable` call of spec 001 when the user moves on). */
  signal?: AbortSignal;
};

/**
 * The one API client: bearer token from the store, and the error catalogue of spec 000 §8: a 422 toasts
 * the first field's first message, other errors with a message (and type not 1) toast it, successes with
 * a message toast it, a 401 logs out; every failure is also rejected to the caller.
 */
/**
 * A 401 logs out only when it answers the token still in use: a request sent with a token that has since
 * been swapped (an impersonation started or stopped while the screen's requests were in flight) is refused
 * for that old token, and says nothing about the session now.
 */
function unauthorized(sentWith: string | null | undefined) {
  if (sentWith === auth.get().token) onUnauthorized();
}

const CUT_OFF = Symbol('cut off');

/**
 * The answer's JSON body; null when it has none. A JSON body that cannot be read to its end is CUT_OFF: an
 * answer that never fully arrived is not an answer (a successful one read as null would look like a
 * broken profile and log the user out).
 */
async function readJson(res: Response): Promise<AnswerBody | null | typeof CUT_OFF> {
  if (!res.headers.get('content-type')?.includes('json')) return null;
  let text: string;
  try {
    text = await res.text();
  } catch {
    return CUT_OFF;
  }
  if (text === '') return null;
  try {
    return JSON.parse(text) as AnswerBody;
  } catch {
    return CUT_OFF;
  }
}

export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const url = new URL(`/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': language };
  const token = auth.get().token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    // Aborted on purpose: not a network failure, and nobody waits for it.
    if (opts.signal?.aborted) throw err;
    throw new ApiError(0, { message: err instanceof Error ? err.message : String(err), code: 'NETWORK' });
  }
  const read = await readJson(res);
  if (read === CUT_OFF && res.ok) {
    if (opts.signal?.aborted) throw new DOMException('The call was aborted', 'AbortError');
    // Headers came, the rest did not (the page is being left, or the connection dropped): no answer.
    throw new ApiError(0, { message: 'The answer was cut off on the way', code: 'NETWORK' });
  }
  // A refusal whose body did not arrive is still a refusal: its status says which.
  const body = read === CUT_OFF ? null : read;
  if (res.ok) {
    if (!opts.silent && body?.success === true && typeof body.message === 'string' && body.message)
      toastSuccess(body.message);
    return body as T;
  }
  const error = new ApiError(res.status, body);
  if (error.code === 'UNAUTHENTICATED') {
    unauthorized(token);
  } else if (!opts.silent) {
    if (error.code === 'VALIDATION') {
      const first = body?.errors ? Object.values(body.errors as Record<string, string[]>)[0]?.[0] : undefined;
      if (first) toastError(first);
    } else if (body?.message && body.type !== 1) {
      toastError(body.message);
    }
  }
  throw error;
}

/**
 * A binary answer (an audio recording, a download) through the same bearer token and error handling: an
 * <audio> or <a> element cannot send the token itself, so screens fetch the bytes and use an object URL.
 */
export async function apiBlob(path: string, opts: { silent?: boolean } = {}): Promise<Blob> {
  const headers: Record<string, string> = { 'accept-language': language };
  const token = auth.get().token;
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(new URL(`/api${path}`, window.location.origin), { headers });
  } catch (err) {
    throw new ApiError(0, { message: err instanceof Error ? err.message : String(err), code: 'NETWORK' });
  }
  if (res.ok) return res.blob();
  const body = res.headers.get('content-type')?.includes('json') ? await res.json().catch(() => null) : null;
  const error = new ApiError(res.status, body);
  if (error.code === 'UNAUTHENTICATED') unauthorized(token);
  else if (!opts.silent && body?.message && body.type !== 1) toastError(body.message);
  throw error;
}

/** Logout as spec 000 §4: clear the token, the role group and every cached list. */
export function clearSession() {
  auth.clear();
  queryClient.clear();
}
