import { isValidPhoneNumber, type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import * as z from 'zod/mini';
import metadata from './widget-phone-metadata.json' with { type: 'json' };

// The contracts the website widget (apps/widget) imports: its public requests and the phone check. Size is
// a feature of the widget, so this entry imports neither libphonenumber's country-wide metadata nor the
// server's messages, nor the rest of the contracts; `npm run bench` prints what it weighs
// (bench/contracts-widget-size.mjs, docs/decisions/017-honest-test-run.md).
//
// It uses zod/mini, which the server's type provider accepts like any zod 4 schema, imported as a
// namespace: esbuild cannot tree-shake `import { z }`, which pulls in all of zod's locales (94 KiB
// gzipped instead of 18). Every issue carries a locale key (as the other contracts do through zod.ts),
// so the server formats it in the user's language and the widget looks it up in WIDGET_MESSAGES.

const phoneMetadata = metadata as unknown as MetadataJson;

/** US and CA are preferred: a number without a country code is read as North American. */
export const WIDGET_PHONE_COUNTRY = 'US' as const;

// International numbers are allowed. The widget only knows the rules of its preferred countries, so for
// any other calling code it checks the E.164 shape (a leading +, at most 15 digits).
const E164_SHAPE = /^\+[1-9]\d{7,14}$/;

/** The E.164 form of a phone number typed into the widget, or null when it is not a valid number. */
export function widgetPhoneToE164(raw: string): string | null {
  const value = raw.trim();
  if (!value || value.length > 40) return null;
  const parsed = parsePhoneNumberFromString(value, WIDGET_PHONE_COUNTRY, phoneMetadata);
  if (parsed) return isValidPhoneNumber(value, WIDGET_PHONE_COUNTRY, phoneMetadata) ? parsed.number : null;
  const compact = value.replace(/[\s().-]/g, '');
  return E164_SHAPE.test(compact) && !compact.startsWith('+1') ? compact : null;
}

/** The texts of the issues these schemas raise, in the widget's languages (the spec's en text first). */
export const WIDGET_MESSAGES = {
  en: {
    'validation.phone': 'Wrong phone number format!!',
    'validation.required': 'This field is required',
    'validation.email': 'Please enter a valid email address.',
    'validation.invalid': 'This value is invalid.',
  },
  es: {
    'validation.phone': '¡¡Formato de número de teléfono incorrecto!!',
    'validation.required': 'Este campo es obligatorio',
    'validation.email': 'Introduce un correo electrónico válido.',
    'validation.invalid': 'Este valor no es válido.',
  },
  br: {
    'validation.phone': 'Formato de número de telefone errado!!',
    'validation.required': 'Este campo é obrigatório',
    'validation.email': 'Informe um e-mail válido.',
    'validation.invalid': 'Este valor é inválido.',
  },
} as const;
export type TWidgetMessageKey = keyof (typeof WIDGET_MESSAGES)['en'];

/** A phone number, 'Wrong phone number format!!' when invalid, answered in E.164. */
export const zWidgetPhone = () =>
  z.pipe(
    z.string({ error: 'validation.required' }).check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.refine((v) => widgetPhoneToE164(v) !== null, { error: 'validation.phone' }),
    ),
    z.transform((v) => widgetPhoneToE164(v) ?? v),
  );

const zOptionalText = (max: number) =>
  z.optional(
    z
      .string({ error: 'validation.invalid' })
      .check(z.trim(), z.maxLength(max, { error: 'validation.invalid' })),
  );

const zOptionalEmail = () =>
  z.optional(
    z.union([z.literal(''), z.email({ error: 'validation.email' }).check(z.trim(), z.maxLength(191))], {
      error: 'validation.email',
    }),
  );

/** Consent flags of the install's gdpr and promotion options; absent means not given. */
const consent = {
  gdpr_consent: z._default(z.boolean({ error: 'validation.invalid' }), false),
  promotion_consent: z._default(z.boolean({ error: 'validation.invalid' }), false),
};

/** Who the visitor is: the phone is required, name and e-mail as the install's form asks. */
const visitor = {
  phone: zWidgetPhone(),
  name: zOptionalText(100),
  email: zOptionalEmail(),
  department_id: z.optional(
    z.int({ error: 'validation.invalid' }).check(z.positive({ error: 'validation.invalid' })),
  ),
  ...consent,
};

/** An instant callback: staff are called and the visitor is connected. */
export const ZWidgetCallbackRequest = z.object(visitor);
export type TWidgetCallbackRequest = z.infer<typeof ZWidgetCallbackRequest>;

/** 'Text us': the visitor's first message starts a two-way SMS conversation. */
export const ZWidgetTextUsRequest = z.object({
  ...visitor,
  message: z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(1600, { error: 'validation.invalid' }),
    ),
});
export type TWidgetTextUsRequest = z.infer<typeof ZWidgetTextUsRequest>;

/** A call scheduled by the visitor for a later time (ISO 8601 with an offset), in their time zone. */
export const ZWidgetScheduleRequest = z.object({
  ...visitor,
  scheduled_at: z.iso.datetime({ offset: true, error: 'validation.invalid' }),
  timezone: z.optional(z.string().check(z.minLength(1), z.maxLength(64, { error: 'validation.invalid' }))),
});
export type TWidgetScheduleRequest = z.infer<typeof ZWidgetScheduleRequest>;
