import { describe, expect, it } from 'vitest';
import {
  WIDGET_MESSAGES,
  widgetPhoneToE164,
  ZWidgetCallbackRequest,
  ZWidgetScheduleRequest,
  ZWidgetTextUsRequest,
} from './widget.ts';

describe('the widget contracts', () => {
  it('read a national number as North American and answer E.164', () => {
    expect(widgetPhoneToE164('(213) 373-4253')).toBe('+12133734253');
    expect(widgetPhoneToE164('+1 416 555 0123')).toBe('+14165550123');
    expect(widgetPhoneToE164('416-555-0123')).toBe('+14165550123');
  });

  it('refuse numbers that are not valid in the preferred countries', () => {
    expect(widgetPhoneToE164('123')).toBeNull();
    expect(widgetPhoneToE164('(113) 373-4253')).toBeNull();
    expect(widgetPhoneToE164('call me')).toBeNull();
    expect(widgetPhoneToE164('')).toBeNull();
  });

  it('allow international numbers by their E.164 shape', () => {
    expect(widgetPhoneToE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(widgetPhoneToE164('+55 (11) 91234-5678')).toBe('+5511912345678');
    expect(widgetPhoneToE164('+44 12')).toBeNull();
    expect(widgetPhoneToE164('+0 1234 56789')).toBeNull();
  });

  it('validate a callback request, answering the phone in E.164 and consent off by default', () => {
    const ok = ZWidgetCallbackRequest.safeParse({
      phone: '213 373 4253',
      name: ' Ann ',
      email: 'ann@example.com',
    });
    expect(ok.success && ok.data).toEqual({
      phone: '+12133734253',
      name: 'Ann',
      email: 'ann@example.com',
      gdpr_consent: false,
      promotion_consent: false,
    });
    const bad = ZWidgetCallbackRequest.safeParse({ phone: '555', email: 'not-an-email' });
    expect(bad.success).toBe(false);
    const issues = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(issues.phone).toBe('validation.phone');
    expect(WIDGET_MESSAGES.en[issues.phone as 'validation.phone']).toBe('Wrong phone number format!!');
    expect(issues.email).toBe('validation.email');
  });

  it('require a message to text us and a time to schedule a call', () => {
    expect(ZWidgetTextUsRequest.safeParse({ phone: '+12133734253', message: 'Hi there' }).success).toBe(true);
    const empty = ZWidgetTextUsRequest.safeParse({ phone: '+12133734253', message: '  ' });
    expect(empty.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['message', 'validation.required'],
    ]);
    expect(
      ZWidgetScheduleRequest.safeParse({
        phone: '+12133734253',
        scheduled_at: '2026-12-01T15:30:00-05:00',
        timezone: 'America/New_York',
        gdpr_consent: true,
      }).success,
    ).toBe(true);
    expect(
      ZWidgetScheduleRequest.safeParse({ phone: '+12133734253', scheduled_at: 'tomorrow' }).success,
    ).toBe(false);
    expect(
      ZWidgetScheduleRequest.safeParse({ scheduled_at: '2026-12-01T15:30:00Z' }).error?.issues[0]?.message,
    ).toBe('validation.required');
  });
});
