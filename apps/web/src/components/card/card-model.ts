// The sandbox card form's pure parts: what the user types (a card number with spaces, an MM/YY expiry, a
// CVC) as Stripe's card fields, and the setup intent's id inside its client secret.

/** `seti_123_secret_abc` → `seti_123` (Stripe.js reads the intent's id the same way). */
export function setupIntentId(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at === -1 ? clientSecret : clientSecret.slice(0, at);
}

/** The digits of a card number, at most 19. */
export function cardDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 19);
}

/** A card number as typed, in groups of four digits: '4242424242424242' → '4242 4242 4242 4242'. */
export function formatCardNumber(value: string): string {
  return cardDigits(value).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * An expiry as typed, MM/YY: a slash after the month ('1225' → '12/25'); a first digit over 1 is a month
 * of its own ('4' → '04'); a typed slash after one digit pads it ('3/' → '03/').
 */
export function formatExpiry(value: string): string {
  const slashAfterOne = /^\s*(\d)\s*\//.exec(value);
  let digits = value.replace(/\D/g, '');
  if (slashAfterOne) digits = `0${digits}`;
  else if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return value.includes('/') ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** MM/YY (or MM/YYYY) as Stripe's exp_month and four-digit exp_year; null when it is not a date. */
export function parseExpiry(value: string): { exp_month: number; exp_year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]?.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { exp_month: month, exp_year: year };
}

/** Whether a card number passes the Luhn check (every real and test card number does). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export type CardValues = { number: string; expiry: string; cvc: string };
/** The locale key of each field's problem (billing.card.errors.*). */
export type CardProblems = Partial<Record<keyof CardValues, string>>;

/** What is wrong with a typed card before it is sent; `now` decides whether the expiry has passed. */
export function cardProblems(v: CardValues, now: Date = new Date()): CardProblems {
  const out: CardProblems = {};
  const digits = cardDigits(v.number);
  if (!digits) out.number = 'number_required';
  else if (digits.length < 13 || !luhnValid(digits)) out.number = 'number_invalid';
  const exp = parseExpiry(v.expiry);
  if (!v.expiry.trim()) out.expiry = 'expiry_required';
  else if (!exp) out.expiry = 'expiry_invalid';
  else if (exp.exp_year * 12 + exp.exp_month < now.getFullYear() * 12 + now.getMonth() + 1)
    out.expiry = 'expiry_past';
  if (!v.cvc.trim()) out.cvc = 'cvc_required';
  else if (!/^\d{3,4}$/.test(v.cvc.trim())) out.cvc = 'cvc_invalid';
  return out;
}

/** The card as the sandbox's confirm call takes it (Stripe's `card[...]` fields). */
export function cardOf(v: CardValues) {
  const exp = parseExpiry(v.expiry);
  return {
    number: cardDigits(v.number),
    exp_month: exp?.exp_month ?? 0,
    exp_year: exp?.exp_year ?? 0,
    cvc: v.cvc.trim(),
  };
}
