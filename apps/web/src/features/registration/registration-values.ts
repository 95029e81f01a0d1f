import type {
  TCampaignInput,
  TCampaignRegistration,
  TCarrierProfile,
  TTollfreeInput,
  TTollfreeVerification,
} from '@stn/contracts/registration';

// The registration forms' values and the requests made of them: what a person types (keywords in one line,
// opt-in addresses one a line, empty optional texts) becomes the contract's body, and a registration or
// verification being fixed fills its form back in.

/** The campaign form's values: keywords as typed (commas or spaces), optional texts as empty strings. */
export type CampaignValues = {
  profile_id: string;
  brand: {
    email: string;
    company_type: string;
    brand_type: string;
    stock_exchange: string;
    stock_ticker: string;
  };
  campaign: {
    use_case: string;
    description: string;
    sample_messages: string[];
    message_flow: string;
    has_embedded_links: boolean;
    has_embedded_phone: boolean;
    opt_in_keywords: string;
    opt_in_message: string;
    opt_out_keywords: string;
    opt_out_message: string;
    help_keywords: string;
    help_message: string;
  };
};

const words = (s: string) =>
  s
    .split(/[,\s]+/)
    .map((w) => w.trim().toUpperCase())
    .filter(Boolean);
const optional = (s: string) => (s.trim() ? s : undefined);

export const campaignRequestOf = (v: CampaignValues): TCampaignInput => ({
  profile_id: Number(v.profile_id) || 0,
  brand: {
    email: v.brand.email.trim(),
    company_type: v.brand.company_type as TCampaignInput['brand']['company_type'],
    brand_type: v.brand.brand_type as NonNullable<TCampaignInput['brand']['brand_type']>,
    stock_exchange: optional(v.brand.stock_exchange),
    stock_ticker: optional(v.brand.stock_ticker),
  },
  campaign: {
    use_case: v.campaign.use_case as TCampaignInput['campaign']['use_case'],
    description: v.campaign.description,
    sample_messages: v.campaign.sample_messages,
    message_flow: v.campaign.message_flow,
    has_embedded_links: v.campaign.has_embedded_links,
    has_embedded_phone: v.campaign.has_embedded_phone,
    opt_in_keywords: words(v.campaign.opt_in_keywords),
    opt_in_message: optional(v.campaign.opt_in_message),
    opt_out_keywords: words(v.campaign.opt_out_keywords),
    opt_out_message: optional(v.campaign.opt_out_message),
    help_keywords: words(v.campaign.help_keywords),
    help_message: optional(v.campaign.help_message),
  },
});

/** The form's first values: from the registration being fixed, else the defaults in the user's language. */
export function campaignValuesOf(
  reg: TCampaignRegistration | null,
  profiles: TCarrierProfile[],
  /** A default reply's text in the user's language (registration.campaign_form.defaults.<key>). */
  t: (key: 'opt_in_message' | 'opt_out_message' | 'help_message') => string,
): CampaignValues {
  const first = profiles.find((p) => p.is_primary) ?? profiles[0];
  const c = reg?.campaign;
  return {
    profile_id: String(reg?.profile_id ?? first?.id ?? ''),
    brand: {
      email: reg?.brand.email ?? first?.email ?? '',
      company_type: reg?.brand.company_type ?? 'private',
      brand_type: reg?.brand.brand_type ?? 'STANDARD',
      stock_exchange: '',
      stock_ticker: '',
    },
    campaign: {
      use_case: c?.use_case ?? 'MIXED',
      description: c?.description ?? '',
      sample_messages: c?.sample_messages?.length ? [...c.sample_messages] : ['', ''],
      message_flow: c?.message_flow ?? '',
      has_embedded_links: c?.has_embedded_links ?? false,
      has_embedded_phone: c?.has_embedded_phone ?? false,
      opt_in_keywords: (c?.opt_in_keywords ?? ['START']).join(', '),
      opt_in_message: c?.opt_in_message ?? t('opt_in_message'),
      opt_out_keywords: (c?.opt_out_keywords ?? ['STOP']).join(', '),
      opt_out_message: c?.opt_out_message ?? t('opt_out_message'),
      help_keywords: (c?.help_keywords ?? ['HELP']).join(', '),
      help_message: c?.help_message ?? t('help_message'),
    },
  };
}

/** The toll-free form's values: the opt-in addresses one a line. */
export type TollfreeValues = {
  business_name: string;
  business_website: string;
  notification_email: string;
  use_case_categories: string[];
  use_case_summary: string;
  production_message_sample: string;
  /** One address a line. */
  opt_in_image_urls: string;
  opt_in_type: string;
  message_volume: string;
  additional_information: string;
};

export const tollfreeValuesOf = (
  v: TTollfreeVerification | null,
  defaults: { name: string; email: string },
): TollfreeValues => ({
  business_name: v?.business_name ?? defaults.name,
  business_website: v?.business_website ?? '',
  notification_email: v?.notification_email ?? defaults.email,
  use_case_categories: v?.use_case_categories ? [...v.use_case_categories] : [],
  use_case_summary: v?.use_case_summary ?? '',
  production_message_sample: v?.production_message_sample ?? '',
  opt_in_image_urls: (v?.opt_in_image_urls ?? []).join('\n'),
  opt_in_type: v?.opt_in_type ?? 'WEB_FORM',
  message_volume: v?.message_volume ?? '1,000',
  additional_information: v?.additional_information ?? '',
});

export const tollfreeRequestOf = (v: TollfreeValues): TTollfreeInput => ({
  business_name: v.business_name,
  business_website: v.business_website.trim(),
  notification_email: v.notification_email.trim(),
  use_case_categories: v.use_case_categories as TTollfreeInput['use_case_categories'],
  use_case_summary: v.use_case_summary,
  production_message_sample: v.production_message_sample,
  opt_in_image_urls: v.opt_in_image_urls
    .split(/\s+/)
    .map((s) => s.trim())
    .filter(Boolean),
  opt_in_type: v.opt_in_type as TTollfreeInput['opt_in_type'],
  message_volume: v.message_volume as TTollfreeInput['message_volume'],
  additional_information: v.additional_information.trim() ? v.additional_information : undefined,
});
