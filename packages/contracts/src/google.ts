import { allItemsOf, itemAnswerOf } from './http.ts';
import { z } from './zod.ts';

// Google Business locations (issue 25; spec 001 "Integrations": google-integrations, locations-by-google,
// google-locations; ADR 091). A business connects its Google Business Profile account (OAuth), ties one of
// the account's locations to an install, and the location's place id gives the install's review link,
// offered as the merge field {review_link}.

/** The review link of a place: where a customer writes a Google review. */
export const reviewLinkOf = (placeId: string) =>
  placeId ? `https://search.google.com/local/writereview?placeid=${encodeURIComponent(placeId)}` : '';

/** A connection to a Google account (never its tokens). */
export const ZGoogleIntegration = z.object({
  id: z.number(),
  account_id: z.string(),
  account_name: z.string(),
  email: z.string(),
  created_at: z.string(),
});
export type TGoogleIntegration = z.infer<typeof ZGoogleIntegration>;
export const ZGoogleIntegrationList = allItemsOf(ZGoogleIntegration);
export const ZGoogleIntegrationResponse = itemAnswerOf(ZGoogleIntegration);

/** Starting the OAuth consent: where the web app sends the browser back to (a screen of ours). */
export const ZGoogleAuthorizeQuery = z.object({
  redirect_uri: z.url({ protocol: /^https?$/ }).max(2000),
});
export const ZGoogleAuthorizeResponse = z.object({
  success: z.literal(true),
  data: z.object({ url: z.string(), state: z.string() }),
});
export type TGoogleAuthorize = z.infer<typeof ZGoogleAuthorizeResponse>['data'];

/** Finishing the OAuth consent: Google's code, the same redirect_uri, and the state we signed. */
export const ZGoogleConnectRequest = z.object({
  code: z.string().trim().min(1).max(2000),
  redirect_uri: z.url({ protocol: /^https?$/ }).max(2000),
  state: z.string().trim().min(1).max(500),
});
export type TGoogleConnectRequest = z.infer<typeof ZGoogleConnectRequest>;

/** A location of the connected account as Google lists it. */
export const ZGoogleAccountLocation = z.object({
  location_id: z.string(),
  title: z.string(),
  address: z.string(),
  place_id: z.string(),
  review_link: z.string(),
});
export type TGoogleAccountLocation = z.infer<typeof ZGoogleAccountLocation>;
export const ZGoogleAccountLocationList = allItemsOf(ZGoogleAccountLocation);

/** A location tied to an install. */
export const ZGoogleLocation = z.object({
  id: z.number(),
  google_integration_id: z.number(),
  install_id: z.number(),
  install_name: z.string(),
  location_id: z.string(),
  title: z.string(),
  address: z.string(),
  place_id: z.string(),
  review_link: z.string(),
  created_at: z.string(),
});
export type TGoogleLocation = z.infer<typeof ZGoogleLocation>;
export const ZGoogleLocationList = allItemsOf(ZGoogleLocation);
export const ZGoogleLocationResponse = itemAnswerOf(ZGoogleLocation);

export const ZGoogleLocationRequest = z.object({
  google_integration_id: z.number().int().positive(),
  install_id: z.number().int().positive(),
  location_id: z
    .string()
    .trim()
    .regex(/^locations\/[A-Za-z0-9_-]{1,100}$/, 'validation.invalid'),
});
export type TGoogleLocationRequest = z.infer<typeof ZGoogleLocationRequest>;
