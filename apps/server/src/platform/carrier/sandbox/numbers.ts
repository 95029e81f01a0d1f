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

export type FakeNumber = {
  phoneNumber: string;
  friendlyName: string;
  country: string;
  region: string;
  locality: string;
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
  const out: FakeNumber[] = [];
  for (let n = 0; n < 900 && out.length < limit; n++) {
    const phoneNumber = plan.number(area, n);
    if (owned.has(phoneNumber)) continue;
    const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phoneNumber);
    out.push({
      phoneNumber,
      friendlyName: us ? `(${us[1]}) ${us[2]}-${us[3]}` : phoneNumber,
      country: country.toUpperCase(),
      region: plan.region,
      locality: plan.locality,
    });
  }
  return out;
}
