import 'react-phone-number-input/style.css';
import { Input, Text } from '@mantine/core';
import { useId } from '@mantine/hooks';
import type { FocusEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import PhoneInput, { type FlagProps, type Labels } from 'react-phone-number-input';
import en from 'react-phone-number-input/locale/en';
import es from 'react-phone-number-input/locale/es';
import ptBR from 'react-phone-number-input/locale/pt-BR';

// Country names in the country list, in the interface language.
const COUNTRY_LABELS: Record<string, Labels> = { en, es, br: ptBR };

/**
 * The selected country as its two-letter code instead of a flag picture: no image requests to the
 * library's default flag CDN, nothing bundled, and readable on systems without flag emoji.
 */
function CountryCode({ country, countryName }: FlagProps) {
  return (
    <Text
      span
      size="sm"
      fw={600}
      c="dimmed"
      title={countryName}
      aria-label={countryName}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%' }}
    >
      {country}
    </Text>
  );
}

/** US and CA first, then the rest (spec 000 §5 and §9: preferred countries US and CA, default US). */
export const PHONE_COUNTRY_ORDER = ['US', 'CA', '|', '...'] as const;

export type PhoneFieldProps = {
  /** International form, e.g. '+12133734253'; '' when empty. */
  value: string;
  onChange: (value: string) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  name?: string;
  id?: string;
  'data-testid'?: string;
};

/**
 * A phone number input in international mode (spec 000 §5): a country select with US and CA on top and
 * US by default, and a number input that only takes valid characters. Works with Mantine's
 * `form.getInputProps(...)`; validate its value with `zPhone()` from lib/validation-messages.ts.
 */
export function PhoneField({
  value,
  onChange,
  onFocus,
  onBlur,
  label,
  description,
  error,
  placeholder,
  required,
  disabled,
  name,
  id,
  'data-testid': testId,
}: PhoneFieldProps) {
  const { i18n } = useTranslation();
  const inputId = useId(id);
  return (
    <Input.Wrapper id={inputId} label={label} description={description} error={error} required={required}>
      <PhoneInput
        id={inputId}
        name={name}
        international
        defaultCountry="US"
        countryOptionsOrder={[...PHONE_COUNTRY_ORDER]}
        labels={COUNTRY_LABELS[i18n.language] ?? en}
        flagComponent={CountryCode}
        value={value || undefined}
        onChange={(next) => onChange(next ?? '')}
        onFocus={onFocus}
        onBlur={onBlur}
        disabled={disabled}
        placeholder={placeholder}
        autoComplete="tel"
        inputComponent={Input}
        numberInputProps={{ error: Boolean(error), 'data-testid': testId, 'aria-invalid': Boolean(error) }}
        style={{
          gap: 'var(--mantine-spacing-xs)',
          // Room for the two-letter code instead of a flag picture, without the flag's frame.
          '--PhoneInputCountryFlag-height': '1.5em',
          '--PhoneInputCountryFlag-aspectRatio': '1.4',
          '--PhoneInputCountryFlag-borderWidth': '0px',
          '--PhoneInputCountryFlag-backgroundColor--loading': 'transparent',
        }}
      />
    </Input.Wrapper>
  );
}
