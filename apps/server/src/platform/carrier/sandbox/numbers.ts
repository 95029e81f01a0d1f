/**
 * Deterministic fake numbers for AvailablePhoneNumbers: the same search gives the same numbers, each
 * in the fictional "555" exchange (or the country's drama range), minus the numbers already owned.
 */
type CountryPlan = {
  /** A default area code when none is asked for. */
  area: string;
  /** Builds the n-th number (0-based) for an area code. */
  number: (area: string, n: number) => string;
  areaPattern: RegExp;
  region: string;
  locality: string;
};

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const PLANS: Record<string, CountryPlan> = {
  US: {
    area: '415',
    areaPattern: /^[2-9]\d{2}$/,
    number: (a, n) => `+1${a}555${pad(100 + n, 4)}`,
    region: 'CA',
    locality: 'San Francisco',
  },
  CA: {
    area: '604',
    areaPattern: /^[2-9]\d{2}$/,
    number: (a, n) => `+1${a}555${pad(100 + n, 4)}`,
    region: 'BC',
    locality: 'Vancouver',
  },
  GB: {
    area: '20',
    areaPattern: /^\d{2,4}$/,
    number: (a, n) => `+44${a}7946${pad(n, 10 - a.length - 4)}`,
    region: 'England',
    locality: 'London',
  },
  AU: {
    area: '2',
    areaPattern: /^\d$/,
    number: (a, n) => `+61${a}5550${pad(n, 4)}`,
    region: 'NSW',
    locality: 'Sydney',
  },
  BR: {
    area: '11',
    areaPattern: /^\d{2}$/,
    number: (a, n) => `+55${a}5555${pad(n, 4)}`,
    region: 'SP',
    locality: 'São Paulo',
  },
  ES: {
    area: '91',
    areaPattern: /^\d{2}$/,
    number: (a, n) => `+34${a}555${pad(n, 4)}`,
    region: 'Madrid',
    locality: 'Madrid',
  },
  MX: {
    area: '55',
    areaPattern: /^\d{2,3}$/,
    number: (a, n) => `+52${a}5555${pad(n, 10 - a.length - 4)}`,
    region: 'CDMX',
    locality: 'Ciudad de México',
  },
};

/**
 * Where a North American area code is (a small table of the common ones), so that a sandbox number from
 * 646 says New York and not the country's default city. An area code not listed has no locality.
 */
const NANP_AREAS: Record<string, [locality: string, region: string]> = {
  '201': ['Jersey City', 'NJ'],
  '202': ['Washington', 'DC'],
  '206': ['Seattle', 'WA'],
  '212': ['New York', 'NY'],
  '213': ['Los Angeles', 'CA'],
  '214': ['Dallas', 'TX'],
  '215': ['Philadelphia', 'PA'],
  '303': ['Denver', 'CO'],
  '305': ['Miami', 'FL'],
  '310': ['Los Angeles', 'CA'],
  '312': ['Chicago', 'IL'],
  '347': ['New York', 'NY'],
  '404': ['Atlanta', 'GA'],
  '415': ['San Francisco', 'CA'],
  '416': ['Toronto', 'ON'],
  '503': ['Portland', 'OR'],
  '512': ['Austin', 'TX'],
  '514': ['Montreal', 'QC'],
  '602': ['Phoenix', 'AZ'],
  '604': ['Vancouver', 'BC'],
  '617': ['Boston', 'MA'],
  '628': ['San Francisco', 'CA'],
  '646': ['New York', 'NY'],
  '702': ['Las Vegas', 'NV'],
  '713': ['Houston', 'TX'],
  '718': ['New York', 'NY'],
  '737': ['Austin', 'TX'],
  '773': ['Chicago', 'IL'],
  '786': ['Miami', 'FL'],
  '804': ['Richmond', 'VA'],
  '818': ['Los Angeles', 'CA'],
  '917': ['New York', 'NY'],
};

/** Twilio's published monthly price of a local number (USD), the sandbox's stated price. */
const LOCAL_PRICES: Record<string, string> = {
  US: '1.15',
  CA: '1.15',
  GB: '1.15',
  AU: '3.00',
  BR: '8.00',
  ES: '1.50',
  MX: '4.25',
};

/** The Pricing API's answer for a country (GET /v1/PhoneNumbers/Countries/{CC}), or null. */
export function numberPricing(country: string) {
  const iso = country.toUpperCase();
  const local = LOCAL_PRICES[iso];
  if (!local) return null;
  return {
    country: iso,
    iso_country: iso,
    phone_number_prices: [{ number_type: 'local', base_price: local, current_price: local }],
    price_unit: 'USD',
    url: `https://pricing.twilio.com/v1/PhoneNumbers/Countries/${iso}`,
  };
}

export type FakeNumber = {
  phoneNumber: string;
  friendlyName: string;
  country: string;
  region: string | null;
  locality: string | null;
};

export function availableNumbers(
  country: string,
  areaCode: string | undefined,
  limit: number,
  owned: ReadonlySet<string>,
): FakeNumber[] {
  const plan = PLANS[country.toUpperCase()];
  if (!plan) return [];
  const area = areaCode ?? plan.area;
  if (!plan.areaPattern.test(area)) return [];
  const nanp = country.toUpperCase() === 'US' || country.toUpperCase() === 'CA';
  const place = nanp ? NANP_AREAS[area] : undefined;
  const out: FakeNumber[] = [];
  for (let n = 0; n < 900 && out.length < limit; n++) {
    const phoneNumber = plan.number(area, n);
    if (owned.has(phoneNumber)) continue;
    const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phoneNumber);
    out.push({
      phoneNumber,
      friendlyName: us ? `(${us[1]}) ${us[2]}-${us[3]}` : phoneNumber,
      country: country.toUpperCase(),
      // A North American number is where its area code is (unknown codes: no place rather than a wrong one).
      region: nanp ? (place?.[1] ?? null) : plan.region,
      locality: nanp ? (place?.[0] ?? null) : plan.locality,
    });
  }
  return out;
}
