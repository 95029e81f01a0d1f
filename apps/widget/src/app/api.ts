// The widget's calls to /api/widget/v1 (the contract in @stn/contracts/widget), with the install key and
// the visitor's language. An answer is ok with its data, or an error with the server's text and its
// per-field errors; a network failure is an error without status.
export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; errors: Record<string, string[]> };

export type Api = {
  get: <T>(path: string) => Promise<ApiResult<T>>;
  post: <T>(path: string, body: unknown) => Promise<ApiResult<T>>;
  /** The realtime stream of a visitor token. */
  eventsUrl: (token: string) => string;
};

export function createApi(base: string, key: string, lang: () => string): Api {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> => {
    try {
      const headers: Record<string, string> = { 'X-Install-Key': key, 'Accept-Language': lang() };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(`${base}/api/widget${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
      });
      const json = (await res.json().catch(() => null)) as {
        data?: T;
        message?: string;
        errors?: Record<string, string[]>;
      } | null;
      if (res.ok && json && 'data' in json) return { ok: true, data: json.data as T };
      return { ok: false, status: res.status, message: json?.message ?? '', errors: json?.errors ?? {} };
    } catch {
      return { ok: false, status: 0, message: '', errors: {} };
    }
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    eventsUrl: (token) =>
      `${base}/api/widget/v1/events?token=${encodeURIComponent(token)}&key=${encodeURIComponent(key)}`,
  };
}
