import type { TWidgetConfig } from '@stn/contracts/widget';
import { describe, expect, it } from 'vitest';
import type { Api, ApiResult } from './api.ts';
import { tagged, tagger } from './tags.ts';

const config = (analytics: TWidgetConfig['analytics']): TWidgetConfig => ({
  id: 7,
  business_name: 'Bright Dental',
  widget_type: 3,
  open_now: true,
  logo: null,
  widget_icon: null,
  settings: {},
  analytics,
});
const params = { stn_install_id: 7, stn_install_name: 'Bright Dental' };

describe('tagger', () => {
  it('pushes to the flagged targets only', () => {
    const calls: unknown[][] = [];
    const win = { gtag: (...a: unknown[]) => calls.push(a), dataLayer: [] as unknown[] };
    tagger(config({ gtag: false, data_layer: true }), win as unknown as Window)('widget_open');
    expect(win.dataLayer).toEqual([{ event: 'stn_widget_open', ...params }]);
    expect(calls).toEqual([]);
    tagger(config({ gtag: true, data_layer: false }), win as unknown as Window)('text_sent');
    expect(calls).toEqual([['event', 'text_sent', params]]);
    expect(win.dataLayer).toHaveLength(1);
  });

  it('does nothing when off, and survives missing or throwing globals', () => {
    const win = { dataLayer: [] as unknown[] };
    tagger(config(null), win as unknown as Window)('widget_open');
    expect(win.dataLayer).toEqual([]);
    const hostile = {
      gtag: () => {
        throw new Error('blocked');
      },
      dataLayer: {
        push: () => {
          throw new Error('nope');
        },
      },
    };
    const tag = tagger(config({ gtag: true, data_layer: true }), hostile as unknown as Window);
    expect(() => tag('callback_request')).not.toThrow();
    expect(() => tagger(config({ gtag: true, data_layer: true }), {} as Window)('call_booked')).not.toThrow();
  });
});

describe('tagged', () => {
  const api = (answer: ApiResult<unknown>): Api => ({
    get: async () => answer as never,
    post: async () => answer as never,
    eventsUrl: () => '',
  });

  it('reports a successful send that is an event, not a closed callback, a failure or another path', async () => {
    const seen: string[] = [];
    const ok = tagged(api({ ok: true, data: { status: 'calling' } }), (e) => seen.push(e));
    await ok.post('/v1/callback', { phone: '+14155550100' });
    await ok.post('/v1/lead', {});
    await ok.post('/v1/text/reply', {});
    await tagged(api({ ok: true, data: { status: 'closed' } }), (e) => seen.push(e)).post('/v1/callback', {});
    await tagged(api({ ok: false, status: 422, message: '', errors: {} }), (e) => seen.push(e)).post(
      '/v1/text',
      {},
    );
    expect(seen).toEqual(['callback_request', 'lead_submitted']);
  });
});
