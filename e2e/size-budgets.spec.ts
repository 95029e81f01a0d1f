// The size budgets (scripts/size-budgets.mjs, ADR 060) against the built web app and widget. No browser:
// it reads the builds scripts/test.mjs makes before the browser suite, with or without Chromium, and a
// missing build fails here rather than skipping.
import { describe, expect, it } from 'vitest';
import { checkBudgets, DIST, kib } from '../scripts/size-budgets.mjs';

type Row = { label: string; size: number; max: number; detail: string };

describe('size budgets', () => {
  const rows: Row[] = (() => {
    try {
      return checkBudgets(DIST);
    } catch (err) {
      it('the builds are there', () => {
        throw err;
      });
      return [];
    }
  })();

  it.each(rows.map((r) => [r.label, r] as const))('%s', (_label, row) => {
    expect(
      row.size,
      `${row.label}: ${kib(row.size)} gzip (${row.detail}), over the budget of ${kib(row.max)}`,
    ).toBeLessThanOrEqual(row.max);
  });
});
