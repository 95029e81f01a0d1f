/**
 * A small XML parser for the TwiML the product answers: elements, attributes, text, CDATA, comments,
 * the XML declaration and the five named entities plus numeric ones. No DTDs, no namespaces. Throws
 * XmlError on malformed input (Twilio answers error 12100 "Document parse failure" for those).
 */
export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlNode[] };
export type XmlNode = XmlElement | string;

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ent: string) => {
    if (ent.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ent.slice(2), 16));
    if (ent.startsWith('#')) return String.fromCodePoint(Number.parseInt(ent.slice(1), 10));
    const named = ENTITIES[ent];
    if (named === undefined) throw new XmlError(`unknown entity ${whole}`);
    return named;
  });
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;

export function parseXml(source: string): XmlElement {
  let i = 0;
  const s = source;
  const fail = (what: string): never => {
    throw new XmlError(`${what} at offset ${i}`);
  };
  const skipMisc = () => {
    for (;;) {
      while (i < s.length && /\s/.test(s[i] ?? '')) i++;
      if (s.startsWith('<?', i)) {
        const end = s.indexOf('?>', i);
        if (end < 0) fail('unterminated declaration');
        i = end + 2;
      } else if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (s.startsWith('<!DOCTYPE', i)) {
        fail('DOCTYPE is not allowed');
      } else return;
    }
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(s);
    if (!m) return fail('expected a name');
    i += m[0].length;
    return m[0];
  };
  const element = (): XmlElement => {
    if (s[i] !== '<') fail('expected <');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [] };
    for (;;) {
      const before = i;
      while (i < s.length && /\s/.test(s[i] ?? '')) i++;
      if (s.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (s[i] === '>') {
        i++;
        break;
      }
      if (i === before) fail('expected whitespace');
      const key = name();
      while (/\s/.test(s[i] ?? '')) i++;
      if (s[i] !== '=') fail('expected =');
      i++;
      while (/\s/.test(s[i] ?? '')) i++;
      const quote = s[i];
      if (quote !== '"' && quote !== "'") return fail('expected a quoted value');
      const end = s.indexOf(quote, i + 1);
      if (end < 0) fail('unterminated attribute');
      el.attrs[key] = decodeEntities(s.slice(i + 1, end));
      i = end + 1;
    }
    for (;;) {
      if (i >= s.length) fail(`unclosed <${el.name}>`);
      if (s.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        while (/\s/.test(s[i] ?? '')) i++;
        if (s[i] !== '>') fail('expected >');
        i++;
        return el;
      }
      if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i);
        if (end < 0) fail('unterminated comment');
        i = end + 3;
      } else if (s.startsWith('<![CDATA[', i)) {
        const end = s.indexOf(']]>', i);
        if (end < 0) fail('unterminated CDATA');
        el.children.push(s.slice(i + 9, end));
        i = end + 3;
      } else if (s[i] === '<') {
        el.children.push(element());
      } else {
        const end = s.indexOf('<', i);
        const text = s.slice(i, end < 0 ? s.length : end);
        el.children.push(decodeEntities(text));
        i = end < 0 ? s.length : end;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i < s.length) fail('content after the root element');
  return root;
}

/** The element's text content, trimmed, whitespace collapsed. */
export function textOf(el: XmlElement): string {
  return el.children
    .map((c) => (typeof c === 'string' ? c : textOf(c)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export const elementsOf = (el: XmlElement): XmlElement[] =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string');
