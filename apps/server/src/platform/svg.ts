// Uploaded SVG images (logos, widget icons) are parsed as XML, namespaces resolved, never grepped: a
// script hides as `<svg:script>`, `<x:script xmlns:x=...>`, an `x:onclick` attribute or an entity-encoded
// `javascript:` that a text search misses (ADR 049). An SVG that could run script or embed a document is
// refused, not cleaned: what is stored is exactly what was checked.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export type SvgProblem = 'dtd' | 'active' | 'invalid';

/** Elements that run script, load a document or listen for events, whatever their namespace. */
const ACTIVE_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'handler',
  'listener',
  'base',
  'link',
  'meta',
  'audio',
  'video',
]);

/** Attributes that hold a URL the browser may follow or load. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href']);

/** Browsers ignore whitespace and control characters inside a scheme (`jav\tascript:`): so do we. */
const squeeze = (value: string) =>
  [...value]
    .filter((ch) => ch.charCodeAt(0) > 0x20 && !/\s/.test(ch))
    .join('')
    .toLowerCase();

/** A raster image embedded as a data: URL is harmless; nothing else that is not http(s) or a fragment. */
function urlAllowed(value: string): boolean {
  const v = squeeze(value);
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(v)?.[1];
  if (!scheme) return true;
  if (scheme === 'http' || scheme === 'https') return true;
  return scheme === 'data' && /^data:image\/(png|jpeg|jpg|gif|webp)[;,]/.test(v);
}

/** True when a value could run script once the browser reads it (javascript:, vbscript:). */
const scripted = (value: string) => /(java|vb)script:/.test(squeeze(value));

/** What is wrong with an SVG document, or null when it is a plain drawing. */
export function svgProblem(text: string): SvgProblem | null {
  const parser = new SaxesParser({ xmlns: true, position: false });
  let problem: SvgProblem | null = null;
  let depth = 0;
  let rootIsSvg = false;
  let inStyle = 0;
  const flag = (p: SvgProblem) => {
    problem ??= p;
  };
  parser.on('doctype', () => flag('dtd'));
  // <?xml-stylesheet?> loads a style sheet from anywhere.
  parser.on('processinginstruction', () => flag('active'));
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagNS;
    const local = t.local.toLowerCase();
    if (depth === 0) rootIsSvg = local === 'svg';
    depth++;
    if (ACTIVE_ELEMENTS.has(local)) flag('active');
    if (local === 'style') inStyle++;
    for (const attr of Object.values(t.attributes)) {
      const name = attr.local.toLowerCase();
      const value = attr.value;
      if (name.startsWith('on')) flag('active');
      if ((URL_ATTRIBUTES.has(name) || URL_ATTRIBUTES.has(attr.name.toLowerCase())) && !urlAllowed(value))
        flag('active');
      // Animation (set/animate to="javascript:..."), xml:base, style url(...): any value that scripts.
      if (scripted(value)) flag('active');
      // An animation that rewrites a link or adds a handler.
      if (name === 'attributename' && /^(.*:)?(href|src)$|^on/i.test(value.trim())) flag('active');
    }
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (tag.local.toLowerCase() === 'style') inStyle--;
  });
  parser.on('text', (t) => {
    if (inStyle > 0 && (scripted(t) || /expression\s*\(|@import/i.test(t))) flag('active');
  });
  parser.on('cdata', (t) => {
    if (inStyle > 0 && (scripted(t) || /expression\s*\(|@import/i.test(t))) flag('active');
  });
  parser.on('error', () => {
    throw new SvgInvalid();
  });
  try {
    parser.write(text).close();
  } catch (err) {
    if (err instanceof SvgInvalid) return problem ?? 'invalid';
    throw err;
  }
  if (problem) return problem;
  return rootIsSvg ? null : 'invalid';
}

class SvgInvalid extends Error {}
