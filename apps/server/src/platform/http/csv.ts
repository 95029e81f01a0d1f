// The one CSV writer: every text/csv answer is written here (ADR 021).

export type CsvCell = string | number | boolean | null | undefined | Date;

/**
 * A text a spreadsheet would run as a formula gets a ' in front: the cell, and each part of it after a
 * ; or , (a spreadsheet that splits cells on that separator reads the part as a cell of its own), when it
 * starts (after spaces) with = + - @, a tab or a carriage return.
 */
export function neutralise(text: string): string {
  return text.replace(/(^|[;,])(?= *[=+\-@\t\r])/g, "$1'");
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === 'string') s = neutralise(s);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV document: the header, then the rows, each line ended by CRLF. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  return `${[header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}
