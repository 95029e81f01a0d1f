// Writes src/widget-phone-metadata.json: libphonenumber-js's `min` metadata cut down to the widget's
// preferred countries (spec 000: US and CA), so the widget does not carry every country's rules.
// Run again after upgrading libphonenumber-js: node packages/contracts/scripts/widget-phone-metadata.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const COUNTRIES = ['US', 'CA'];
const require = createRequire(import.meta.url);
const min = require('libphonenumber-js/metadata.min.json');

const countries = Object.fromEntries(COUNTRIES.map((c) => [c, min.countries[c]]));
const codes = {};
for (const [code, list] of Object.entries(min.country_calling_codes)) {
  const kept = list.filter((c) => COUNTRIES.includes(c));
  if (kept.length) codes[code] = kept;
}
const out = path.resolve(import.meta.dirname, '../src/widget-phone-metadata.json');
fs.writeFileSync(
  out,
  `${JSON.stringify({ version: min.version, country_calling_codes: codes, countries })}\n`,
);
console.log(`${path.relative(process.cwd(), out)}: ${COUNTRIES.join(', ')} (${fs.statSync(out).size} bytes)`);
