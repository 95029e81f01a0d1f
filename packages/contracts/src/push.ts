import { z } from 'zod';
import { dataOf } from './http.ts';

// Web Push (ADR 037): the server's VAPID public key and a browser's push subscription, registered at the
// spec's push sign-in path api/v1/pusher/beams-auth (served by our own push registration, not Pusher's).

export const ZVapidKey = dataOf(z.object({ public_key: z.string() }));

const zB64Url = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+=*$/, 'validation.invalid');

/** PushSubscription.toJSON() of the browser. */
export const ZPushSubscription = z.object({
  endpoint: z.url().max(2000).startsWith('https://', 'validation.invalid'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: zB64Url, auth: zB64Url }),
});
export type TPushSubscription = z.infer<typeof ZPushSubscription>;

export const ZBeamsAuthRequest = z.object({ subscription: ZPushSubscription });
export const ZBeamsAuthResponse = dataOf(z.object({ id: z.number(), endpoint: z.string() }));
