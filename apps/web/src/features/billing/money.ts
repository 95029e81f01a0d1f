/** Integer cents as dollars for display (e.g. 4900 -> '$49.00'). */
export function formatCents(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale === 'br' ? 'pt-BR' : locale, {
    style: 'currency',
    currency: 'USD',
  }).format(cents / 100);
}

/** Dollars typed in a form as integer cents; '' stays null (so that it reads as required). */
export function centsOf(dollars: number | string): number | null {
  if (dollars === '') return null;
  const n = Number(dollars);
  return Number.isFinite(n) ? Math.round(n * 100) : Number.NaN;
}

/** Renames a field in validation errors (the request's price_cents is the form's price). */
export function renameField(
  errors: Record<string, string>,
  from: string,
  to: string,
): Record<string, string> {
  if (!(from in errors)) return errors;
  const { [from]: message, ...rest } = errors;
  return { ...rest, [to]: message as string };
}

/** Integer cents in the offer's currency (Stripe's lower-case code), e.g. 4900 'usd' -> '$49.00'. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale === 'br' ? 'pt-BR' : locale, {
      style: 'currency',
      currency: currency.toUpperCase() || 'USD',
    }).format(cents / 100);
  } catch {
    return formatCents(cents, locale);
  }
}
