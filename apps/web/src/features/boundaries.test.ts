// The web app's boundaries (CONVENTIONS 8): a feature is a domain and imports no other feature, no layout
// and no area registry; shared code lives in components/ and lib/, and components/ and lib/ import no
// feature. Read from the source, so a new file is checked without being listed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');
// The navigation files are leaving app/ for lib/nav (route table, guards); until then features may use
// them, and nothing else of app/.
const APP_ALLOWED = new Set(['app/route-table.ts', 'app/guards.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every relative import of a file, as a path from src/. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] ?? '');
  return specs.map((s) =>
    path
      .relative(SRC, path.resolve(path.dirname(file), s))
      .split(path.sep)
      .join('/'),
  );
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

/** What `file` imports that the rules forbid. */
export function violations(file: string, imports: string[]): string[] {
  const from = rel(file);
  const [top, feature] = from.split('/');
  return imports.filter((to) => {
    const [toTop, toFeature] = to.split('/');
    if (top === 'features') {
      if (toTop === 'features') return toFeature !== feature;
      if (toTop === 'layouts') return true;
      if (toTop === 'app') return !APP_ALLOWED.has(to);
      return false;
    }
    if (top === 'components' || top === 'lib') return toTop === 'features' || toTop === 'layouts';
    return false;
  });
}

describe('web boundaries', () => {
  it('features import no other feature, no layout and no area registry; components and lib no feature', () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      violations(file, importsOf(file)).map((to) => `${rel(file)} -> ${to}`),
    );
    expect(found).toEqual([]);
  });

  it('the rule refuses what it is meant to refuse', () => {
    const f = (p: string) => path.join(SRC, p);
    expect(violations(f('features/users/x.tsx'), ['features/billing/api/plans.ts'])).toHaveLength(1);
    expect(violations(f('features/users/x.tsx'), ['layouts/app-layout.tsx'])).toHaveLength(1);
    expect(violations(f('features/users/x.tsx'), ['app/admin-routes.ts'])).toHaveLength(1);
    expect(violations(f('components/list/x.tsx'), ['features/users/user-form.tsx'])).toHaveLength(1);
    expect(violations(f('features/users/x.tsx'), ['features/users/api/x.ts', 'lib/query-keys.ts'])).toEqual(
      [],
    );
  });
});
