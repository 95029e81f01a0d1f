import crypto from 'node:crypto';
import type { SandboxClock } from './clock.ts';

/**
 * The sandbox's emulation of Twilio's registration APIs (issue 26): TrustHub (CustomerProfiles,
 * TrustProducts, EndUsers, SupportingDocuments, their EntityAssignments and Evaluations), the account's
 * Addresses, Messaging's a2p/BrandRegistrations, Services with their PhoneNumbers and Compliance/Usa2p
 * campaigns, and Tollfree/Verifications — the REST paths the `twilio` SDK calls, answered in Twilio's JSON.
 *
 * What happens on the sandbox clock (ADR 092):
 * - a bundle submitted (Status=pending-review, only when its evaluation is compliant) is in-review at once
 *   and decided REVIEW_MS later: twilio-approved, or twilio-rejected with errors for a chosen input
 *   (an address with postal code 00000);
 * - a brand is PENDING and decided REVIEW_MS after creation once its customer profile is decided: FAILED
 *   "TCR: the EIN does not match the legal name" for EIN 00-0000000 (or when its profile was rejected),
 *   else APPROVED with a TCR id and a score;
 * - a campaign (only on an APPROVED brand) is IN_PROGRESS, then REVIEW_MS later VERIFIED with carrier rate
 *   limits, or FAILED with error 30896 when a sample message does not name the brand's business;
 * - a toll-free verification is PENDING_REVIEW, IN_REVIEW at once, then TWILIO_APPROVED REVIEW_MS later,
 *   or TWILIO_REJECTED (error 30446) for the website https://rejected.example.
 * Missing required parameters answer 400 with code 20001, as Twilio's v1 APIs do.
 */

export const REVIEW_MS = 3 * 60_000;
/** Inputs that fail on purpose (tests, demos). */
export const FAILING_EIN = '00-0000000';
export const FAILING_POSTAL_CODE = '00000';
export const REJECTED_WEBSITE = 'https://rejected.example';
export const EIN_FAILURE = 'TCR: the EIN does not match the legal name';
export const SAMPLE_FAILURE_CODE = 30896;
export const SAMPLE_FAILURE =
  'Campaign sample messages must identify the brand: include the business name in every sample';
export const TOLLFREE_REJECTION_CODE = 30446;
export const TOLLFREE_REJECTION =
  'Website not accessible or does not match the business: the business website could not be verified';

type Form = Record<string, string | string[]>;

/** An error the REST API answers (the sandbox turns it into Twilio's JSON error). */
export class RegistrationFault extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const sid = (prefix: string) => prefix + crypto.randomBytes(16).toString('hex');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function one(form: Form, key: string): string | undefined {
  const v = form[key];
  return Array.isArray(v) ? v[0] : v;
}
function many(form: Form, key: string): string[] {
  const v = form[key];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
const missing = (param: string) =>
  new RegistrationFault(400, 20001, `Missing required parameter ${param} in the post body`);
const invalid = (param: string, why: string) =>
  new RegistrationFault(400, 20001, `Invalid parameter ${param}: ${why}`);
function required(form: Form, key: string): string {
  const v = one(form, key);
  if (v === undefined || v.trim() === '') throw missing(key);
  return v;
}
function attributes(form: Form): Record<string, unknown> {
  const raw = one(form, 'Attributes');
  if (raw === undefined) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // below
  }
  throw invalid('Attributes', 'not a JSON object');
}
const bool = (v: string | undefined) => v === 'true' || v === 'True';

type BundleKind = 'CustomerProfiles' | 'TrustProducts';
type BundleStatus = 'draft' | 'pending-review' | 'in-review' | 'twilio-approved' | 'twilio-rejected';

export type SandboxBundle = {
  sid: string;
  accountSid: string;
  kind: BundleKind;
  friendlyName: string;
  email: string;
  policySid: string;
  statusCallback: string | null;
  status: BundleStatus;
  errors: { code: number; message: string; object_field?: string }[];
  assignments: { sid: string; objectSid: string; dateCreated: number }[];
  /** Bumped on each submission: a review decided for an older one is dropped. */
  round: number;
  dateCreated: number;
  dateUpdated: number;
};

type Entity = {
  sid: string;
  accountSid: string;
  friendlyName: string;
  type: string;
  attributes: Record<string, unknown>;
  dateCreated: number;
  dateUpdated: number;
};

type Address = {
  sid: string;
  accountSid: string;
  customerName: string;
  friendlyName: string;
  street: string;
  streetSecondary: string | null;
  city: string;
  region: string;
  postalCode: string;
  isoCountry: string;
  dateCreated: number;
  dateUpdated: number;
};

export type SandboxBrand = {
  sid: string;
  accountSid: string;
  customerProfileSid: string;
  a2pProfileSid: string;
  brandType: string;
  status: 'PENDING' | 'APPROVED' | 'FAILED';
  failureReason: string | null;
  errors: { code: string; description: string }[];
  tcrId: string | null;
  brandScore: number | null;
  identityStatus: string | null;
  dateCreated: number;
  dateUpdated: number;
};

type Service = {
  sid: string;
  accountSid: string;
  friendlyName: string;
  inboundRequestUrl: string | null;
  statusCallback: string | null;
  phoneNumberSids: Set<string>;
  dateCreated: number;
};

export type SandboxCampaign = {
  sid: string;
  accountSid: string;
  serviceSid: string;
  brandSid: string;
  campaignId: string | null;
  status: 'IN_PROGRESS' | 'VERIFIED' | 'FAILED';
  useCase: string;
  description: string;
  samples: string[];
  messageFlow: string;
  hasEmbeddedLinks: boolean;
  hasEmbeddedPhone: boolean;
  optInKeywords: string[];
  optInMessage: string | null;
  optOutKeywords: string[];
  optOutMessage: string | null;
  helpKeywords: string[];
  helpMessage: string | null;
  errors: { error_code: number; description: string }[];
  rateLimits: Record<string, unknown>;
  dateCreated: number;
  dateUpdated: number;
};

export type SandboxTollfree = {
  sid: string;
  accountSid: string;
  phoneNumberSid: string;
  phoneNumber: string;
  form: Form;
  status: 'PENDING_REVIEW' | 'IN_REVIEW' | 'TWILIO_APPROVED' | 'TWILIO_REJECTED';
  rejectionReason: string | null;
  errorCode: number | null;
  dateCreated: number;
  dateUpdated: number;
};

/** What the registry needs of the sandbox. */
export type RegistryHost = {
  clock: SandboxClock;
  /** The account's incoming number (toll-free verification, Messaging Service senders). */
  incomingNumber(accountSid: string, sid: string): { sid: string; phoneNumber: string } | undefined;
  /** A signed status callback to the product (tracked by the clock). */
  hook(url: string, params: Record<string, string>, accountSid: string): void;
};

const TOLLFREE = /^\+18(00|33|44|55|66|77|88)\d{7}$/;

type Answer = [status: number, body: unknown];

export class SandboxRegistry {
  readonly bundles = new Map<string, SandboxBundle>();
  readonly entities = new Map<string, Entity>();
  readonly addresses = new Map<string, Address>();
  readonly brands = new Map<string, SandboxBrand>();
  readonly services = new Map<string, Service>();
  readonly campaigns = new Map<string, SandboxCampaign>();
  readonly tollfree = new Map<string, SandboxTollfree>();

  constructor(private readonly host: RegistryHost) {}

  private now() {
    return this.host.clock.now();
  }

  /**
   * The carrier's treatment of unregistered traffic (ADR 092): the error code a text from `from` fails with
   * on this account, or null when it may send. An account that never began registering (no customer
   * profile, no brand in this registry) is treated as registered long ago: its texts go as before. One that
   * has: a US toll-free number needs an approved verification (30032), any other US number must be in the
   * sender pool of a Messaging Service with a VERIFIED campaign (30034). Numbers outside +1 are not held.
   */
  senderRefusal(accountSid: string, from: string): 30032 | 30034 | null {
    if (!from.startsWith('+1')) return null;
    const begun =
      [...this.bundles.values()].some((b) => b.accountSid === accountSid && b.kind === 'CustomerProfiles') ||
      [...this.brands.values()].some((b) => b.accountSid === accountSid);
    if (!begun) return null;
    if (TOLLFREE.test(from)) {
      const approved = [...this.tollfree.values()].some(
        (v) => v.accountSid === accountSid && v.phoneNumber === from && v.status === 'TWILIO_APPROVED',
      );
      return approved ? null : 30032;
    }
    for (const c of this.campaigns.values()) {
      if (c.accountSid !== accountSid || c.status !== 'VERIFIED') continue;
      for (const pn of this.services.get(c.serviceSid)?.phoneNumberSids ?? [])
        if (this.host.incomingNumber(accountSid, pn)?.phoneNumber === from) return null;
    }
    return 30034;
  }

  /** Answers a registration path, or null when the path is not one of them. */
  route(method: string, path: string, accountSid: string, form: Form): Answer | null {
    const addr = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Addresses(?:\/(AD[0-9a-f]{32}))?\.json$/.exec(
      path,
    );
    if (addr) {
      if (addr[1] !== accountSid) throw new RegistrationFault(401, 20003, 'Authenticate');
      return this.addressRoute(method, path, accountSid, addr[2], form);
    }
    const m = /^\/v1\/(.+)$/.exec(path);
    if (!m?.[1]) return null;
    const parts = m[1].split('/');
    const [a, b, c, d, e] = parts;
    const notAllowed = () => new RegistrationFault(405, 20004, 'Method not allowed');
    switch (a) {
      case 'CustomerProfiles':
      case 'TrustProducts': {
        if (b === undefined) {
          if (method === 'POST') return [201, this.bundleJson(this.createBundle(a, accountSid, form))];
          throw notAllowed();
        }
        const bundle = this.own(this.bundles, b, accountSid, path);
        if (bundle.kind !== a) throw this.notFound(path);
        if (c === undefined) {
          if (method === 'GET') return [200, this.bundleJson(bundle)];
          if (method === 'POST') return [200, this.bundleJson(this.updateBundle(bundle, form))];
          throw notAllowed();
        }
        if (c === 'EntityAssignments' && d === undefined) {
          if (method === 'POST') return [201, this.assignmentJson(bundle, this.assign(bundle, form))];
          if (method === 'GET')
            return [
              200,
              this.page(
                path,
                bundle.assignments.map((x) => this.assignmentJson(bundle, x)),
              ),
            ];
          throw notAllowed();
        }
        if (c === 'Evaluations' && d === undefined && method === 'POST') {
          required(form, 'PolicySid');
          return [201, this.evaluationJson(bundle, this.evaluate(bundle))];
        }
        throw this.notFound(path);
      }
      case 'EndUsers':
      case 'SupportingDocuments': {
        const prefix = a === 'EndUsers' ? 'IT' : 'RD';
        if (b === undefined) {
          if (method !== 'POST') throw notAllowed();
          const now = this.now();
          const entity: Entity = {
            sid: sid(prefix),
            accountSid,
            friendlyName: required(form, 'FriendlyName'),
            type: required(form, 'Type'),
            attributes: attributes(form),
            dateCreated: now,
            dateUpdated: now,
          };
          this.entities.set(entity.sid, entity);
          return [201, this.entityJson(a, entity)];
        }
        const entity = this.own(this.entities, b, accountSid, path);
        if (!entity.sid.startsWith(prefix) || c !== undefined) throw this.notFound(path);
        if (method === 'GET') return [200, this.entityJson(a, entity)];
        if (method === 'POST') {
          if (form.Attributes !== undefined) entity.attributes = attributes(form);
          const name = one(form, 'FriendlyName');
          if (name) entity.friendlyName = name;
          entity.dateUpdated = this.now();
          return [200, this.entityJson(a, entity)];
        }
        throw notAllowed();
      }
      case 'a2p': {
        if (b !== 'BrandRegistrations' || d !== undefined) throw this.notFound(path);
        if (c === undefined) {
          if (method === 'POST') return [201, this.brandJson(this.createBrand(accountSid, form))];
          throw notAllowed();
        }
        const brand = this.own(this.brands, c, accountSid, path);
        if (method === 'GET') return [200, this.brandJson(brand)];
        throw notAllowed();
      }
      case 'Services': {
        if (b === undefined) {
          if (method !== 'POST') throw notAllowed();
          const s: Service = {
            sid: sid('MG'),
            accountSid,
            friendlyName: required(form, 'FriendlyName'),
            inboundRequestUrl: one(form, 'InboundRequestUrl') ?? null,
            statusCallback: one(form, 'StatusCallback') ?? null,
            phoneNumberSids: new Set(),
            dateCreated: this.now(),
          };
          this.services.set(s.sid, s);
          return [201, this.serviceJson(s)];
        }
        const service = this.own(this.services, b, accountSid, path);
        if (c === undefined) {
          if (method === 'GET') return [200, this.serviceJson(service)];
          throw notAllowed();
        }
        if (c === 'PhoneNumbers' && d === undefined && method === 'POST') {
          const pn = required(form, 'PhoneNumberSid');
          const n = this.host.incomingNumber(accountSid, pn);
          if (!n) throw invalid('PhoneNumberSid', `${pn} is not a number of this account`);
          service.phoneNumberSids.add(pn);
          return [
            201,
            {
              sid: pn,
              account_sid: accountSid,
              service_sid: service.sid,
              phone_number: n.phoneNumber,
              country_code: 'US',
              capabilities: ['SMS', 'MMS', 'Voice'],
              date_created: iso(this.now()),
              date_updated: iso(this.now()),
              url: `https://messaging.twilio.com/v1/Services/${service.sid}/PhoneNumbers/${pn}`,
            },
          ];
        }
        if (c === 'Compliance' && d === 'Usa2p') {
          if (e === undefined) {
            if (method === 'POST') return [201, this.campaignJson(this.createCampaign(service, form))];
            if (method === 'GET')
              return [
                200,
                this.page(
                  path,
                  [...this.campaigns.values()]
                    .filter((x) => x.serviceSid === service.sid)
                    .map((x) => this.campaignJson(x)),
                  'compliance',
                ),
              ];
            throw notAllowed();
          }
          const campaign = this.own(this.campaigns, e, accountSid, path);
          if (campaign.serviceSid !== service.sid || parts.length > 5) throw this.notFound(path);
          if (method === 'GET') return [200, this.campaignJson(campaign)];
          throw notAllowed();
        }
        throw this.notFound(path);
      }
      case 'Tollfree': {
        if (b !== 'Verifications' || d !== undefined) throw this.notFound(path);
        if (c === undefined) {
          if (method === 'POST') return [201, this.tollfreeJson(this.createTollfree(accountSid, form))];
          throw notAllowed();
        }
        const v = this.own(this.tollfree, c, accountSid, path);
        if (method === 'GET') return [200, this.tollfreeJson(v)];
        throw notAllowed();
      }
      default:
        return null;
    }
  }

  private notFound(path: string) {
    return new RegistrationFault(404, 20404, `The requested resource ${path} was not found`);
  }

  private own<T extends { accountSid: string }>(
    map: Map<string, T>,
    key: string,
    accountSid: string,
    path: string,
  ): T {
    const item = map.get(key);
    if (!item || item.accountSid !== accountSid) throw this.notFound(path);
    return item;
  }

  private page(path: string, items: unknown[], key = 'results') {
    const url = `https://sandbox.twilio.local${path}?PageSize=50&Page=0`;
    return {
      [key]: items,
      meta: {
        key,
        page: 0,
        page_size: 50,
        first_page_url: url,
        previous_page_url: null,
        next_page_url: null,
        url,
      },
    };
  }

  // ---- Addresses (2010-04-01) --------------------------------------------------------------------

  private addressRoute(
    method: string,
    path: string,
    accountSid: string,
    id: string | undefined,
    form: Form,
  ): Answer {
    if (id === undefined) {
      if (method !== 'POST') throw new RegistrationFault(405, 20004, 'Method not allowed');
      const now = this.now();
      const a: Address = {
        sid: sid('AD'),
        accountSid,
        customerName: required(form, 'CustomerName'),
        friendlyName: one(form, 'FriendlyName') ?? '',
        street: required(form, 'Street'),
        streetSecondary: one(form, 'StreetSecondary') || null,
        city: required(form, 'City'),
        region: required(form, 'Region'),
        postalCode: required(form, 'PostalCode'),
        isoCountry: required(form, 'IsoCountry'),
        dateCreated: now,
        dateUpdated: now,
      };
      if (!/^[A-Z]{2}$/.test(a.isoCountry)) throw new RegistrationFault(400, 21628, 'Invalid IsoCountry');
      this.addresses.set(a.sid, a);
      return [201, this.addressJson(a)];
    }
    const a = this.own(this.addresses, id, accountSid, path);
    if (method === 'GET') return [200, this.addressJson(a)];
    if (method === 'POST') {
      for (const [key, field] of [
        ['CustomerName', 'customerName'],
        ['FriendlyName', 'friendlyName'],
        ['Street', 'street'],
        ['City', 'city'],
        ['Region', 'region'],
        ['PostalCode', 'postalCode'],
      ] as const) {
        const v = one(form, key);
        if (v !== undefined) a[field] = v;
      }
      if (form.StreetSecondary !== undefined) a.streetSecondary = one(form, 'StreetSecondary') || null;
      a.dateUpdated = this.now();
      return [200, this.addressJson(a)];
    }
    throw new RegistrationFault(405, 20004, 'Method not allowed');
  }

  private addressJson(a: Address) {
    return {
      sid: a.sid,
      account_sid: a.accountSid,
      customer_name: a.customerName,
      friendly_name: a.friendlyName,
      street: a.street,
      street_secondary: a.streetSecondary,
      city: a.city,
      region: a.region,
      postal_code: a.postalCode,
      iso_country: a.isoCountry,
      emergency_enabled: false,
      validated: true,
      verified: false,
      date_created: new Date(a.dateCreated).toUTCString().replace('GMT', '+0000'),
      date_updated: new Date(a.dateUpdated).toUTCString().replace('GMT', '+0000'),
      uri: `/2010-04-01/Accounts/${a.accountSid}/Addresses/${a.sid}.json`,
    };
  }

  // ---- TrustHub bundles -----------------------------------------------------------------------------

  private createBundle(kind: BundleKind, accountSid: string, form: Form): SandboxBundle {
    const now = this.now();
    const bundle: SandboxBundle = {
      sid: sid('BU'),
      accountSid,
      kind,
      friendlyName: required(form, 'FriendlyName'),
      email: required(form, 'Email'),
      policySid: required(form, 'PolicySid'),
      statusCallback: one(form, 'StatusCallback') || null,
      status: 'draft',
      errors: [],
      assignments: [],
      round: 0,
      dateCreated: now,
      dateUpdated: now,
    };
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(bundle.email))
      throw invalid('Email', `${bundle.email} is not an e-mail address`);
    this.bundles.set(bundle.sid, bundle);
    return bundle;
  }

  private updateBundle(bundle: SandboxBundle, form: Form): SandboxBundle {
    const status = one(form, 'Status');
    const reviewing = bundle.status === 'pending-review' || bundle.status === 'in-review';
    const edits = ['FriendlyName', 'Email', 'StatusCallback'].some((k) => form[k] !== undefined);
    if (reviewing && (edits || status === 'draft'))
      throw new RegistrationFault(400, 20001, `Bundle ${bundle.sid} cannot be changed while it is in review`);
    const name = one(form, 'FriendlyName');
    if (name) bundle.friendlyName = name;
    const email = one(form, 'Email');
    if (email) bundle.email = email;
    if (form.StatusCallback !== undefined) bundle.statusCallback = one(form, 'StatusCallback') || null;
    if (status === 'draft' && bundle.status === 'twilio-rejected') {
      bundle.status = 'draft';
      bundle.errors = [];
    } else if (status === 'pending-review') {
      if (bundle.status !== 'draft')
        throw new RegistrationFault(
          400,
          20001,
          `Bundle ${bundle.sid} is ${bundle.status}, not draft: it cannot be submitted`,
        );
      const evaluation = this.evaluate(bundle);
      if (evaluation.status !== 'compliant')
        throw new RegistrationFault(
          400,
          20001,
          `Invalid parameter Status: bundle ${bundle.sid} is not compliant with its policy; evaluate it to see what is missing`,
        );
      this.submit(bundle);
    } else if (status !== undefined && status !== bundle.status) {
      throw invalid('Status', `${status} cannot be set`);
    }
    bundle.dateUpdated = this.now();
    return bundle;
  }

  private assign(bundle: SandboxBundle, form: Form) {
    const objectSid = required(form, 'ObjectSid');
    const known =
      this.entities.get(objectSid)?.accountSid === bundle.accountSid ||
      this.bundles.get(objectSid)?.accountSid === bundle.accountSid;
    if (!known) throw invalid('ObjectSid', `${objectSid} is not an object of this account`);
    if (bundle.status === 'pending-review' || bundle.status === 'in-review')
      throw new RegistrationFault(400, 20001, `Bundle ${bundle.sid} cannot be changed while it is in review`);
    const a = { sid: sid('BV'), objectSid, dateCreated: this.now() };
    bundle.assignments.push(a);
    return a;
  }

  private assignmentJson(bundle: SandboxBundle, a: { sid: string; objectSid: string; dateCreated: number }) {
    const key = bundle.kind === 'CustomerProfiles' ? 'customer_profile_sid' : 'trust_product_sid';
    return {
      sid: a.sid,
      [key]: bundle.sid,
      account_sid: bundle.accountSid,
      object_sid: a.objectSid,
      date_created: iso(a.dateCreated),
      url: `https://trusthub.twilio.com/v1/${bundle.kind}/${bundle.sid}/EntityAssignments/${a.sid}`,
    };
  }

  private assigned(bundle: SandboxBundle) {
    return bundle.assignments.map((a) => this.entities.get(a.objectSid) ?? this.bundles.get(a.objectSid));
  }

  /** The bundle against its policy: Twilio's results, one per requirement. */
  private evaluate(bundle: SandboxBundle) {
    const items = this.assigned(bundle);
    const entity = (type: string) =>
      items.find((x): x is Entity => x !== undefined && 'type' in x && x.type === type);
    type Result = {
      friendly_name: string;
      object_type: string;
      passed: boolean;
      failure_reason: string | null;
      error_code: number | null;
      valid: { friendly_name: string; object_field: string }[];
      invalid: { friendly_name: string; object_field: string; failure_reason: string; error_code: number }[];
      requirement_friendly_name: string;
      requirement_name: string;
    };
    const results: Result[] = [];
    const requirement = (type: string, title: string, fields: string[]) => {
      const e = entity(type);
      const result: Result = {
        friendly_name: title,
        object_type: type,
        passed: false,
        failure_reason: null,
        error_code: null,
        valid: [],
        invalid: [],
        requirement_friendly_name: title,
        requirement_name: type,
      };
      if (!e) {
        result.failure_reason = `${title} is missing`;
        result.error_code = 22216;
      } else {
        for (const f of fields) {
          const v = e.attributes[f];
          if (v === undefined || v === null || String(v).trim() === '')
            result.invalid.push({
              friendly_name: f,
              object_field: f,
              failure_reason: `${f} is required`,
              error_code: 22215,
            });
          else result.valid.push({ friendly_name: f, object_field: f });
        }
        if (result.invalid.length) {
          result.failure_reason = `${title} is incomplete`;
          result.error_code = 22215;
        } else result.passed = true;
      }
      results.push(result);
    };
    if (bundle.kind === 'CustomerProfiles') {
      requirement('customer_profile_business_information', 'Business Information', [
        'business_name',
        'business_type',
        'business_industry',
        'business_registration_identifier',
        'business_registration_number',
        'business_regions_of_operation',
        'website_url',
      ]);
      requirement('authorized_representative_1', 'Authorized Representative 1', [
        'first_name',
        'last_name',
        'email',
        'phone_number',
        'business_title',
        'job_position',
      ]);
      const doc = entity('customer_profile_address');
      const addressSids = doc ? [doc.attributes.address_sids].flat().map(String) : [];
      const address = addressSids
        .map((s) => this.addresses.get(s))
        .find((x) => x?.accountSid === bundle.accountSid);
      results.push({
        friendly_name: 'Business Address',
        object_type: 'customer_profile_address',
        passed: address !== undefined,
        failure_reason: address ? null : 'Business Address is missing',
        error_code: address ? null : 22216,
        valid: address ? [{ friendly_name: 'address_sids', object_field: 'address_sids' }] : [],
        invalid: [],
        requirement_friendly_name: 'Business Address',
        requirement_name: 'customer_profile_address',
      });
    } else {
      const info = entity('us_a2p_messaging_profile_information');
      const fields =
        info?.attributes.company_type === 'public'
          ? ['company_type', 'stock_exchange', 'stock_ticker']
          : ['company_type'];
      requirement('us_a2p_messaging_profile_information', 'US A2P Messaging Profile Information', fields);
      const profile = items.find(
        (x): x is SandboxBundle => x !== undefined && 'kind' in x && x.kind === 'CustomerProfiles',
      );
      results.push({
        friendly_name: 'Customer Profile',
        object_type: 'customer_profile',
        passed: profile !== undefined,
        failure_reason: profile ? null : 'A customer profile must be assigned',
        error_code: profile ? null : 22216,
        valid: [],
        invalid: [],
        requirement_friendly_name: 'Customer Profile',
        requirement_name: 'customer_profile',
      });
    }
    return {
      sid: sid('EL'),
      status: results.every((r) => r.passed) ? 'compliant' : 'noncompliant',
      results,
      dateCreated: this.now(),
    };
  }

  private evaluationJson(bundle: SandboxBundle, e: ReturnType<SandboxRegistry['evaluate']>) {
    const key = bundle.kind === 'CustomerProfiles' ? 'customer_profile_sid' : 'trust_product_sid';
    return {
      sid: e.sid,
      account_sid: bundle.accountSid,
      policy_sid: bundle.policySid,
      [key]: bundle.sid,
      status: e.status,
      results: e.results,
      date_created: iso(e.dateCreated),
      url: `https://trusthub.twilio.com/v1/${bundle.kind}/${bundle.sid}/Evaluations/${e.sid}`,
    };
  }

  private setBundleStatus(bundle: SandboxBundle, status: BundleStatus) {
    bundle.status = status;
    bundle.dateUpdated = this.now();
    if (bundle.statusCallback)
      this.host.hook(
        bundle.statusCallback,
        {
          AccountSid: bundle.accountSid,
          BundleSid: bundle.sid,
          Status: status,
          ...(bundle.errors.length ? { FailureReason: bundle.errors.map((x) => x.message).join('; ') } : {}),
        },
        bundle.accountSid,
      );
  }

  private submit(bundle: SandboxBundle) {
    const round = ++bundle.round;
    this.setBundleStatus(bundle, 'pending-review');
    this.host.clock.schedule(0, () => {
      if (bundle.round === round && bundle.status === 'pending-review')
        this.setBundleStatus(bundle, 'in-review');
    });
    this.host.clock.schedule(REVIEW_MS, () => {
      if (bundle.round !== round || bundle.status !== 'in-review') return;
      const errors = this.reviewErrors(bundle);
      bundle.errors = errors;
      this.setBundleStatus(bundle, errors.length ? 'twilio-rejected' : 'twilio-approved');
    });
  }

  /** Why a reviewer rejects the bundle (the chosen failing inputs), or nothing. */
  private reviewErrors(bundle: SandboxBundle): SandboxBundle['errors'] {
    const items = this.assigned(bundle);
    if (bundle.kind === 'TrustProducts') {
      const profile = items.find((x): x is SandboxBundle => x !== undefined && 'kind' in x);
      if (profile?.status === 'twilio-rejected')
        return [{ code: 22217, message: `The customer profile ${profile.sid} was rejected` }];
      return [];
    }
    for (const x of items) {
      if (!x || !('type' in x) || x.type !== 'customer_profile_address') continue;
      for (const s of [x.attributes.address_sids].flat().map(String)) {
        if (this.addresses.get(s)?.postalCode === FAILING_POSTAL_CODE)
          return [
            {
              code: 22218,
              message: 'The business address could not be verified: the postal code does not exist',
              object_field: 'postal_code',
            },
          ];
      }
    }
    return [];
  }

  private bundleJson(b: SandboxBundle) {
    const base = `https://trusthub.twilio.com/v1/${b.kind}/${b.sid}`;
    return {
      sid: b.sid,
      account_sid: b.accountSid,
      policy_sid: b.policySid,
      friendly_name: b.friendlyName,
      status: b.status,
      valid_until: null,
      email: b.email,
      status_callback: b.statusCallback,
      date_created: iso(b.dateCreated),
      date_updated: iso(b.dateUpdated),
      url: base,
      links: {
        [b.kind === 'CustomerProfiles'
          ? 'customer_profiles_entity_assignments'
          : 'trust_products_entity_assignments']: `${base}/EntityAssignments`,
        [b.kind === 'CustomerProfiles' ? 'customer_profiles_evaluations' : 'trust_products_evaluations']:
          `${base}/Evaluations`,
      },
      errors: b.errors.length ? b.errors : null,
    };
  }

  private entityJson(kind: 'EndUsers' | 'SupportingDocuments', e: Entity) {
    return {
      sid: e.sid,
      account_sid: e.accountSid,
      friendly_name: e.friendlyName,
      type: e.type,
      attributes: e.attributes,
      ...(kind === 'SupportingDocuments' ? { status: 'draft', mime_type: null } : {}),
      date_created: iso(e.dateCreated),
      date_updated: iso(e.dateUpdated),
      url: `https://trusthub.twilio.com/v1/${kind}/${e.sid}`,
    };
  }

  // ---- Brands -----------------------------------------------------------------------------------

  private businessOf(profileSid: string): Record<string, unknown> {
    const profile = this.bundles.get(profileSid);
    if (!profile) return {};
    for (const x of this.assigned(profile))
      if (x && 'type' in x && x.type === 'customer_profile_business_information') return x.attributes;
    return {};
  }

  private createBrand(accountSid: string, form: Form): SandboxBrand {
    const profileSid = required(form, 'CustomerProfileBundleSid');
    const a2pSid = required(form, 'A2PProfileBundleSid');
    const profile = this.bundles.get(profileSid);
    if (profile?.accountSid !== accountSid || profile.kind !== 'CustomerProfiles')
      throw invalid('CustomerProfileBundleSid', `${profileSid} is not a customer profile of this account`);
    const a2p = this.bundles.get(a2pSid);
    if (a2p?.accountSid !== accountSid || a2p.kind !== 'TrustProducts')
      throw invalid('A2PProfileBundleSid', `${a2pSid} is not an A2P messaging profile of this account`);
    if (profile.status === 'draft' || profile.status === 'twilio-rejected')
      throw invalid(
        'CustomerProfileBundleSid',
        `the customer profile ${profileSid} is ${profile.status}: submit it first`,
      );
    const brandType = one(form, 'BrandType') ?? 'STANDARD';
    if (brandType !== 'STANDARD' && brandType !== 'LOW_VOLUME_STANDARD' && brandType !== 'SOLE_PROPRIETOR')
      throw invalid('BrandType', `${brandType} is not a brand type`);
    const now = this.now();
    const brand: SandboxBrand = {
      sid: sid('BN'),
      accountSid,
      customerProfileSid: profileSid,
      a2pProfileSid: a2pSid,
      brandType,
      status: 'PENDING',
      failureReason: null,
      errors: [],
      tcrId: null,
      brandScore: null,
      identityStatus: null,
      dateCreated: now,
      dateUpdated: now,
    };
    this.brands.set(brand.sid, brand);
    const decide = () => {
      if (brand.status !== 'PENDING') return;
      const p = this.bundles.get(profileSid);
      // Waits for its profile's review, as TCR's vetting waits for Twilio's.
      if (p && (p.status === 'pending-review' || p.status === 'in-review')) {
        this.host.clock.schedule(60_000, decide);
        return;
      }
      brand.dateUpdated = this.now();
      const business = this.businessOf(profileSid);
      if (p?.status !== 'twilio-approved') {
        brand.status = 'FAILED';
        brand.failureReason = `The customer profile ${profileSid} was not approved`;
        brand.errors = [{ code: 'PROFILE_REJECTED', description: brand.failureReason }];
      } else if (String(business.business_registration_number ?? '').trim() === FAILING_EIN) {
        brand.status = 'FAILED';
        brand.failureReason = EIN_FAILURE;
        brand.errors = [{ code: 'TAX_ID', description: EIN_FAILURE }];
        brand.identityStatus = 'UNVERIFIED';
      } else {
        brand.status = 'APPROVED';
        brand.tcrId = `B${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
        brand.brandScore = brandType === 'STANDARD' ? 75 : 0;
        brand.identityStatus = 'VERIFIED';
      }
    };
    this.host.clock.schedule(REVIEW_MS, decide);
    return brand;
  }

  private brandJson(b: SandboxBrand) {
    return {
      sid: b.sid,
      account_sid: b.accountSid,
      customer_profile_bundle_sid: b.customerProfileSid,
      a2p_profile_bundle_sid: b.a2pProfileSid,
      date_created: iso(b.dateCreated),
      date_updated: iso(b.dateUpdated),
      brand_type: b.brandType,
      status: b.status,
      tcr_id: b.tcrId,
      failure_reason: b.failureReason,
      errors: b.errors,
      url: `https://messaging.twilio.com/v1/a2p/BrandRegistrations/${b.sid}`,
      brand_score: b.brandScore,
      brand_feedback: null,
      identity_status: b.identityStatus,
      russell_3000: false,
      government_entity: false,
      tax_exempt_status: null,
      skip_automatic_sec_vet: false,
      mock: false,
      links: {},
    };
  }

  // ---- Messaging Services and campaigns -----------------------------------------------------------

  private serviceJson(s: Service) {
    return {
      sid: s.sid,
      account_sid: s.accountSid,
      friendly_name: s.friendlyName,
      inbound_request_url: s.inboundRequestUrl,
      inbound_method: 'POST',
      status_callback: s.statusCallback,
      use_inbound_webhook_on_number: false,
      usecase: 'undeclared',
      us_app_to_person_registered: [...this.campaigns.values()].some(
        (c) => c.serviceSid === s.sid && c.status === 'VERIFIED',
      ),
      date_created: iso(s.dateCreated),
      date_updated: iso(s.dateCreated),
      url: `https://messaging.twilio.com/v1/Services/${s.sid}`,
      links: {},
    };
  }

  private createCampaign(service: Service, form: Form): SandboxCampaign {
    const brandSid = required(form, 'BrandRegistrationSid');
    const description = required(form, 'Description');
    const messageFlow = required(form, 'MessageFlow');
    const useCase = required(form, 'UsAppToPersonUsecase');
    const samples = many(form, 'MessageSamples').filter((s) => s.trim() !== '');
    if (form.MessageSamples === undefined) throw missing('MessageSamples');
    if (samples.length < 2) throw invalid('MessageSamples', 'at least 2 sample messages are required');
    if (samples.some((s) => s.length < 20 || s.length > 1024))
      throw invalid('MessageSamples', 'each sample message is 20 to 1024 characters long');
    if (description.length < 40)
      throw invalid('Description', 'the description is at least 40 characters long');
    if (messageFlow.length < 40)
      throw invalid('MessageFlow', 'the message flow is at least 40 characters long');
    const brand = this.brands.get(brandSid);
    if (brand?.accountSid !== service.accountSid)
      throw invalid('BrandRegistrationSid', `${brandSid} is not a brand of this account`);
    if (brand.status !== 'APPROVED')
      throw invalid('BrandRegistrationSid', `the brand ${brandSid} is ${brand.status}, not APPROVED`);
    if ([...this.campaigns.values()].some((c) => c.serviceSid === service.sid && c.status !== 'FAILED'))
      throw new RegistrationFault(409, 21711, `The Messaging Service ${service.sid} already has a campaign`);
    const now = this.now();
    const campaign: SandboxCampaign = {
      sid: sid('QE'),
      accountSid: service.accountSid,
      serviceSid: service.sid,
      brandSid,
      campaignId: null,
      status: 'IN_PROGRESS',
      useCase,
      description,
      samples,
      messageFlow,
      hasEmbeddedLinks: bool(one(form, 'HasEmbeddedLinks')),
      hasEmbeddedPhone: bool(one(form, 'HasEmbeddedPhone')),
      optInKeywords: many(form, 'OptInKeywords'),
      optInMessage: one(form, 'OptInMessage') ?? null,
      optOutKeywords: many(form, 'OptOutKeywords'),
      optOutMessage: one(form, 'OptOutMessage') ?? null,
      helpKeywords: many(form, 'HelpKeywords'),
      helpMessage: one(form, 'HelpMessage') ?? null,
      errors: [],
      rateLimits: {},
      dateCreated: now,
      dateUpdated: now,
    };
    this.campaigns.set(campaign.sid, campaign);
    this.host.clock.schedule(REVIEW_MS, () => {
      if (campaign.status !== 'IN_PROGRESS') return;
      campaign.dateUpdated = this.now();
      const name = String(this.businessOf(brand.customerProfileSid).business_name ?? '')
        .trim()
        .toLowerCase();
      if (!name || campaign.samples.some((s) => !s.toLowerCase().includes(name))) {
        campaign.status = 'FAILED';
        campaign.errors = [{ error_code: SAMPLE_FAILURE_CODE, description: SAMPLE_FAILURE }];
        return;
      }
      campaign.status = 'VERIFIED';
      campaign.campaignId = `C${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
      const standard = brand.brandType === 'STANDARD';
      campaign.rateLimits = {
        att: { mps: standard ? '75' : '4', msg_class: standard ? 'A' : 'T' },
        tmobile: { brand_tier: standard ? 'MID' : 'LOW' },
      };
    });
    return campaign;
  }

  private campaignJson(c: SandboxCampaign) {
    return {
      sid: c.sid,
      account_sid: c.accountSid,
      brand_registration_sid: c.brandSid,
      messaging_service_sid: c.serviceSid,
      description: c.description,
      message_samples: c.samples,
      us_app_to_person_usecase: c.useCase,
      has_embedded_links: c.hasEmbeddedLinks,
      has_embedded_phone: c.hasEmbeddedPhone,
      subscriber_opt_in: true,
      age_gated: false,
      direct_lending: false,
      campaign_status: c.status,
      campaign_id: c.campaignId,
      is_externally_registered: false,
      rate_limits: c.rateLimits,
      message_flow: c.messageFlow,
      opt_in_message: c.optInMessage,
      opt_out_message: c.optOutMessage,
      help_message: c.helpMessage,
      opt_in_keywords: c.optInKeywords,
      opt_out_keywords: c.optOutKeywords,
      help_keywords: c.helpKeywords,
      privacy_policy_url: null,
      terms_and_conditions_url: null,
      date_created: iso(c.dateCreated),
      date_updated: iso(c.dateUpdated),
      url: `https://messaging.twilio.com/v1/Services/${c.serviceSid}/Compliance/Usa2p/${c.sid}`,
      mock: false,
      errors: c.errors,
    };
  }

  // ---- Toll-free verification ---------------------------------------------------------------------

  private createTollfree(accountSid: string, form: Form): SandboxTollfree {
    for (const key of [
      'TollfreePhoneNumberSid',
      'BusinessName',
      'BusinessWebsite',
      'NotificationEmail',
      'UseCaseSummary',
      'ProductionMessageSample',
      'OptInType',
      'MessageVolume',
    ])
      required(form, key);
    if (many(form, 'UseCaseCategories').length === 0) throw missing('UseCaseCategories');
    if (many(form, 'OptInImageUrls').length === 0) throw missing('OptInImageUrls');
    const pn = required(form, 'TollfreePhoneNumberSid');
    const number = this.host.incomingNumber(accountSid, pn);
    if (!number) throw invalid('TollfreePhoneNumberSid', `${pn} is not a number of this account`);
    if (!TOLLFREE.test(number.phoneNumber))
      throw invalid('TollfreePhoneNumberSid', `${number.phoneNumber} is not a toll-free number`);
    if ([...this.tollfree.values()].some((v) => v.phoneNumberSid === pn && v.status !== 'TWILIO_REJECTED'))
      throw new RegistrationFault(409, 20409, `A verification of ${number.phoneNumber} already exists`);
    const now = this.now();
    const v: SandboxTollfree = {
      sid: sid('HH'),
      accountSid,
      phoneNumberSid: pn,
      phoneNumber: number.phoneNumber,
      form,
      status: 'PENDING_REVIEW',
      rejectionReason: null,
      errorCode: null,
      dateCreated: now,
      dateUpdated: now,
    };
    this.tollfree.set(v.sid, v);
    this.host.clock.schedule(0, () => {
      if (v.status !== 'PENDING_REVIEW') return;
      v.status = 'IN_REVIEW';
      v.dateUpdated = this.now();
    });
    this.host.clock.schedule(REVIEW_MS, () => {
      if (v.status !== 'IN_REVIEW') return;
      v.dateUpdated = this.now();
      const site = (one(v.form, 'BusinessWebsite') ?? '').replace(/\/+$/, '').toLowerCase();
      if (site === REJECTED_WEBSITE) {
        v.status = 'TWILIO_REJECTED';
        v.rejectionReason = TOLLFREE_REJECTION;
        v.errorCode = TOLLFREE_REJECTION_CODE;
      } else v.status = 'TWILIO_APPROVED';
    });
    return v;
  }

  private tollfreeJson(v: SandboxTollfree) {
    const f = (key: string) => one(v.form, key) ?? null;
    return {
      sid: v.sid,
      account_sid: v.accountSid,
      customer_profile_sid: f('CustomerProfileSid'),
      trust_product_sid: null,
      regulated_item_sid: null,
      date_created: iso(v.dateCreated),
      date_updated: iso(v.dateUpdated),
      business_name: f('BusinessName'),
      business_street_address: f('BusinessStreetAddress'),
      business_street_address2: f('BusinessStreetAddress2'),
      business_city: f('BusinessCity'),
      business_state_province_region: f('BusinessStateProvinceRegion'),
      business_postal_code: f('BusinessPostalCode'),
      business_country: f('BusinessCountry'),
      business_website: f('BusinessWebsite'),
      business_contact_first_name: f('BusinessContactFirstName'),
      business_contact_last_name: f('BusinessContactLastName'),
      business_contact_email: f('BusinessContactEmail'),
      business_contact_phone: f('BusinessContactPhone'),
      notification_email: f('NotificationEmail'),
      use_case_categories: many(v.form, 'UseCaseCategories'),
      use_case_summary: f('UseCaseSummary'),
      production_message_sample: f('ProductionMessageSample'),
      opt_in_image_urls: many(v.form, 'OptInImageUrls'),
      opt_in_type: f('OptInType'),
      message_volume: f('MessageVolume'),
      additional_information: f('AdditionalInformation'),
      tollfree_phone_number_sid: v.phoneNumberSid,
      tollfree_phone_number: v.phoneNumber,
      status: v.status,
      url: `https://messaging.twilio.com/v1/Tollfree/Verifications/${v.sid}`,
      rejection_reason: v.rejectionReason,
      error_code: v.errorCode,
      rejection_reasons: v.rejectionReason ? [{ code: v.errorCode, reason: v.rejectionReason }] : null,
      edit_expiration: null,
      edit_allowed: v.status === 'TWILIO_REJECTED',
      resource_links: {},
      external_reference_id: null,
    };
  }
}
