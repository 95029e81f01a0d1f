import {
  type TCampaignRegistration,
  type TCarrierProfile,
  type TTollfreeVerification,
  ZCampaignInput,
  ZTollfreeInput,
} from '@stn/contracts/registration';
import { describe, expect, it } from 'vitest';
import {
  campaignRequestOf,
  campaignValuesOf,
  tollfreeRequestOf,
  tollfreeValuesOf,
} from './registration-values.ts';

const profile = (over: Partial<TCarrierProfile>): TCarrierProfile => ({
  id: 1,
  sid: 'BU1',
  friendly_name: 'Main',
  email: 'owner@acme.test',
  business: {
    legal_name: 'Acme LLC',
    business_type: 'Corporation',
    industry: 'LEGAL',
    ein: '12-3456789',
    website: 'https://acme.example',
  },
  representative: {
    first_name: 'Olive',
    last_name: 'Owner',
    email: 'owner@acme.test',
    phone: '+14155550100',
    business_title: 'Owner',
    job_position: 'CEO',
  },
  address: { street: '1 Main', city: 'SF', region: 'CA', postal_code: '94107', iso_country: 'US' },
  status: 'in-review',
  reasons: [],
  problems: [],
  is_primary: false,
  in_use: false,
  submitted_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...over,
});

const defaults = (k: string) => `default ${k}`;

describe('the campaign form', () => {
  it('starts from the primary profile, its e-mail and the usual keywords and replies', () => {
    const v = campaignValuesOf(
      null,
      [profile({ id: 1 }), profile({ id: 2, is_primary: true, email: 'primary@acme.test' })],
      defaults,
    );
    expect(v.profile_id).toBe('2');
    expect(v.brand.email).toBe('primary@acme.test');
    expect(v.campaign.sample_messages).toEqual(['', '']);
    expect([v.campaign.opt_in_keywords, v.campaign.opt_out_keywords, v.campaign.help_keywords]).toEqual([
      'START',
      'STOP',
      'HELP',
    ]);
    expect(v.campaign.opt_out_message).toBe('default opt_out_message');
  });

  it('sends keywords as upper-case words and leaves out empty optional texts', () => {
    const v = campaignValuesOf(null, [profile({})], defaults);
    v.campaign.description = 'd'.repeat(40);
    v.campaign.message_flow = 'f'.repeat(40);
    v.campaign.sample_messages = ['Acme LLC: one sample here', 'Acme LLC: another sample'];
    v.campaign.opt_out_keywords = 'stop, quit  end,';
    v.campaign.help_message = '  ';
    const body = campaignRequestOf(v);
    expect(body.profile_id).toBe(1);
    expect(body.campaign.opt_out_keywords).toEqual(['STOP', 'QUIT', 'END']);
    expect(body.campaign.help_message).toBeUndefined();
    expect(body.brand.stock_exchange).toBeUndefined();
    expect(ZCampaignInput.safeParse(body).success).toBe(true);
  });

  it('a failed registration fills the form back in, and is sent again as it was', () => {
    const sent = {
      use_case: 'MARKETING' as const,
      description: 'Promotions for the clinics we serve, twice a month at most.',
      sample_messages: [
        'Acme LLC: spring offer, 10% off.',
        'Acme LLC: reply STOP to opt out.',
        'Acme LLC: hi',
      ],
      message_flow: 'People tick a consent box on the booking form of the website.',
      has_embedded_links: true,
      has_embedded_phone: false,
      opt_in_keywords: ['JOIN'],
      opt_in_message: 'Acme LLC: joined.',
      opt_out_keywords: ['STOP', 'END'],
      opt_out_message: 'Acme LLC: bye.',
      help_keywords: ['HELP'],
      help_message: 'Acme LLC: help.',
    };
    const reg: TCampaignRegistration = {
      id: 9,
      profile_id: 3,
      status: 'failed',
      brand: {
        sid: 'BN1',
        status: 'APPROVED',
        reasons: [],
        email: 'brand@acme.test',
        company_type: 'non-profit',
        brand_type: 'LOW_VOLUME_STANDARD',
      },
      messaging_service_sid: 'MG1',
      campaign: {
        ...sent,
        sid: 'QE1',
        campaign_id: null,
        status: 'FAILED',
        failures: [{ code: 30896, reason: 'samples' }],
        throughput_mps: null,
      },
      synced_at: null,
      updated_at: '2026-01-01T00:00:00Z',
    };
    const body = campaignRequestOf(campaignValuesOf(reg, [profile({ id: 3 })], defaults));
    expect(body).toEqual({
      profile_id: 3,
      brand: { email: 'brand@acme.test', company_type: 'non-profit', brand_type: 'LOW_VOLUME_STANDARD' },
      campaign: sent,
    });
  });
});

describe('the toll-free form', () => {
  it('starts with the business name and e-mail, and sends the opt-in addresses one a line', () => {
    const v = tollfreeValuesOf(null, { name: 'Bright Dental', email: 'admin@brightdental.test' });
    expect([v.business_name, v.notification_email, v.opt_in_type, v.message_volume]).toEqual([
      'Bright Dental',
      'admin@brightdental.test',
      'WEB_FORM',
      '1,000',
    ]);
    v.business_website = ' https://brightdental.example ';
    v.use_case_categories = ['APPOINTMENTS'];
    v.use_case_summary = 'Reminders for booked patients.';
    v.production_message_sample = 'Bright Dental: see you tomorrow at 10.';
    v.opt_in_image_urls = 'https://brightdental.example/a.png\n\n  https://brightdental.example/b.png ';
    const body = tollfreeRequestOf(v);
    expect(body.business_website).toBe('https://brightdental.example');
    expect(body.opt_in_image_urls).toEqual([
      'https://brightdental.example/a.png',
      'https://brightdental.example/b.png',
    ]);
    expect(body.additional_information).toBeUndefined();
    expect(ZTollfreeInput.safeParse(body).success).toBe(true);
  });

  it('a rejected verification fills the form back in as it was sent', () => {
    const sent = {
      business_name: 'Bright Dental',
      business_website: 'https://rejected.example',
      notification_email: 'admin@brightdental.test',
      use_case_categories: ['APPOINTMENTS' as const, 'CUSTOMER_CARE' as const],
      use_case_summary: 'Reminders for booked patients.',
      production_message_sample: 'Bright Dental: see you tomorrow at 10.',
      opt_in_image_urls: ['https://brightdental.example/a.png'],
      opt_in_type: 'VERBAL' as const,
      message_volume: '100' as const,
      additional_information: 'Dentists only.',
    };
    const rejected: TTollfreeVerification = {
      ...sent,
      id: 4,
      sid: 'HH1',
      status: 'TWILIO_REJECTED',
      rejection_reason: 'Website unreachable',
      error_code: 30446,
      updated_at: '2026-01-01T00:00:00Z',
    };
    expect(tollfreeRequestOf(tollfreeValuesOf(rejected, { name: 'x', email: 'y' }))).toEqual(sent);
  });
});
