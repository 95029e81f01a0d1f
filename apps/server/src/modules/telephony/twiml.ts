// TwiML answers, written as Twilio documents them (https://www.twilio.com/docs/voice/twiml). The sandbox
// interprets exactly these documents, and so does Twilio.

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

type Attrs = Record<string, string | number | boolean | null | undefined>;

/** One element: attributes without a value are left out; children are already-built TwiML. */
export function el(name: string, attrs: Attrs = {}, ...children: string[]): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
  return children.length ? `<${name}${a}>${children.join('')}</${name}>` : `<${name}${a}/>`;
}

export const say = (text: string) => el('Say', {}, escapeXml(text));
export const hangup = () => el('Hangup');

/** The whole document. */
export function twiml(...verbs: string[]): string {
  return `${XML_HEAD}${verbs.length ? `<Response>${verbs.join('')}</Response>` : '<Response/>'}`;
}

export const TWIML_TYPE = 'text/xml; charset=utf-8';
