// Statements (round trips) this process sends PostgreSQL: every pg client's query() is counted, the
// server's pools and pg-boss's alike, so a bench prints "statements per text" (repeatable, unlike CPU on
// a shared machine). Install before the database opens. BENCH_SQL=1 also keeps the count of each
// statement's text (its first 160 characters, or BENCH_SQL_CHARS, whitespace folded) for `topStatements`.
import pg from 'pg';

let total = 0;
const byText = new Map<string, number>();
const keepText = process.env.BENCH_SQL === '1';
let installed = false;

export function countStatements(): void {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    total++;
    if (keepText) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = (typeof first === 'string' ? first : (first?.text ?? '?'))
        .replace(/\s+/g, ' ')
        .slice(0, Number(process.env.BENCH_SQL_CHARS ?? 160));
      byText.set(text, (byText.get(text) ?? 0) + 1);
    }
    return query.apply(this, args);
  };
}

/** Statements sent so far. */
export const statementsSent = (): number => total;

/** The statements sent most often since `resetStatementTexts` (BENCH_SQL=1), as printable lines. */
export function topStatements(n = 25, per = 1): string[] {
  return [...byText.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([text, count]) => `    ${(count / per).toFixed(3).padStart(8)}  ${text}`);
}
export const resetStatementTexts = (): void => byText.clear();
