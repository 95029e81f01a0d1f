import { invalidParam } from './errors.ts';

// Stripe's request encoding: application/x-www-form-urlencoded with bracket notation
// (`items[0][price]=price_1`, `expand[]=latest_invoice`, `metadata[plan]=pro`), as the SDK writes it (qs,
// indices). Parsed into nested objects; an object whose keys are all numeric indices becomes an array.

export type Params = Record<string, unknown>;

/** Parses a form body or query string into nested params (values stay strings; '' means "unset"). */
export function parseForm(body: string): Params {
  const root: Params = {};
  if (!body) return root;
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const path = splitKey(rawKey);
    if (path.length === 0) continue;
    let node: Record<string, unknown> = root;
    for (let i = 0; i < path.length - 1; i++) {
      const seg = path[i] as string;
      let next = node[seg];
      if (typeof next !== 'object' || next === null) {
        next = {};
        node[seg] = next;
      }
      node = next as Record<string, unknown>;
    }
    let last = path[path.length - 1] as string;
    // `expand[]=a&expand[]=b`: an empty index appends.
    if (last === '') last = String(Object.keys(node).length);
    node[last] = value;
  }
  return arrays(root) as Params;
}

function decode(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // a malformed escape stays as written
  }
}

/** `a[b][0][c]` → ['a', 'b', '0', 'c']. */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open < 0) return [key];
  const out = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  for (let m = re.exec(key); m; m = re.exec(key)) out.push(m[1] ?? '');
  return out;
}

/** Turns objects keyed 0..n-1 into arrays, deeply. */
function arrays(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const k of keys) obj[k] = arrays(obj[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((i) => obj[String(i)]);
  }
  return obj;
}

// Coercion of the string values the form carries.

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function int(v: unknown, param: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw invalidParam(param, `Invalid integer: ${String(v)}`);
  return Number(v);
}

export function num(v: unknown, param: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw invalidParam(param, `Invalid decimal: ${String(v)}`);
  return n;
}

export function bool(v: unknown): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  return v === true || v === 'true';
}

export const obj = (v: unknown): Params | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Params) : undefined;

export const list = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v) : [];

/** metadata: string values; '' unsets a key (update). */
export function metadata(v: unknown, current: Record<string, string> = {}): Record<string, string> {
  if (v === '') return {};
  const m = obj(v);
  if (!m) return current;
  const out = { ...current };
  for (const [k, val] of Object.entries(m)) {
    if (val === '' || val === undefined) delete out[k];
    else out[k] = String(val);
  }
  return out;
}
