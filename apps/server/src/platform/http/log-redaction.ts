// What a request log line says about the request. Fastify's own line names the URL; a URL may carry a
// secret in its query (the widget's visitor token on /api/widget/v1/events and /v1/conversation, which
// EventSource cannot send in a header; a password reset or e-mail verification token on the pages those
// e-mails link to). Such values are replaced before the line is written (ADR 041).

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = new Set(['token', 'access_token', 'code']);

/** The URL with the values of secret query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a malformed name is logged as it came
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) && eq >= 0 ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

type LoggedRequest = {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
};

/** Fastify's request serializer, with the URL's secrets redacted. */
export function requestForLog(req: LoggedRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
