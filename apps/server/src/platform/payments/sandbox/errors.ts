// Stripe's error answers: `{error:{type, code, decline_code?, message, param?}}` with Stripe's HTTP status,
// which the SDK turns into StripeCardError, StripeInvalidRequestError, StripeAuthenticationError…

export type StripeErrorBody = {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
  payment_method?: unknown;
  doc_url?: string;
};

export class StripeApiError extends Error {
  /** Commit the transaction's writes before answering with the error (a decline that Stripe records). */
  keep = false;
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
  kept(): this {
    this.keep = true;
    return this;
  }
}

export const invalidRequest = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });

export const invalidParam = (param: string, message: string) =>
  invalidRequest(message, param, 'parameter_invalid_empty');

export const missingParam = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');

/** The noun Stripe writes in "No such …" for each object type. */
const NOUNS: Record<string, string> = {
  payment_method: 'PaymentMethod',
  setup_intent: 'setupintent',
  payment_intent: 'payment_intent',
  promotion_code: 'promotion code',
  webhook_endpoint: 'webhook endpoint',
};

export const noSuch = (type: string, id: string, param = 'id') =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${NOUNS[type] ?? type}: '${id}'`,
    param,
  });

export const cardError = (code: string, message: string, declineCode?: string, param?: string) =>
  new StripeApiError(402, {
    type: 'card_error',
    code,
    message,
    ...(declineCode ? { decline_code: declineCode } : {}),
    ...(param ? { param } : {}),
  });
