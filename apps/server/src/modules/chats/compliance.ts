// Content checks of every outgoing text (spec 000 §8 'Restricted Message Content'): the agency's
// profanity filter when it is on, and SHAFT content (sex, hate, alcohol, firearms, tobacco, plus illegal
// drugs and violence) always, since carriers filter and suspend senders for it. Whole words only, case
// insensitive; the preview masks each match. Who may be texted at all (opt-outs, blocks, lists) is in
// service.ts, which asks the compliance module's lists.

const PROFANITY = [
  'fuck',
  'fucking',
  'fucker',
  'motherfucker',
  'shit',
  'bullshit',
  'bitch',
  'asshole',
  'bastard',
  'cunt',
  'dick',
  'pussy',
  'whore',
  'slut',
  'piss',
  'crap',
];

/** Restricted categories (SHAFT and the carriers' banned list) and words that put a text in them. */
const RESTRICTED: Record<string, string[]> = {
  sex: ['sex', 'sexy', 'porn', 'porno', 'nude', 'nudes', 'xxx', 'escort', 'escorts', 'onlyfans'],
  hate: ['nazi', 'kill all', 'white power', 'faggot', 'nigger', 'retard'],
  alcohol: ['beer', 'vodka', 'whiskey', 'whisky', 'tequila', 'liquor', 'booze', 'rum', 'wine'],
  firearms: ['gun', 'guns', 'firearm', 'firearms', 'rifle', 'rifles', 'pistol', 'ammo', 'ammunition'],
  tobacco: ['tobacco', 'cigarette', 'cigarettes', 'cigar', 'cigars', 'vape', 'vapes', 'vaping', 'nicotine'],
  drugs: ['cannabis', 'marijuana', 'weed', 'thc', 'cbd', 'cocaine', 'heroin', 'meth', 'mdma', 'kratom'],
  violence: ['murder', 'bomb', 'shoot you', 'kill you'],
};

const escapeWord = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const wordsRe = (words: string[]) => new RegExp(`\\b(?:${words.map(escapeWord).join('|')})\\b`, 'giu');

const PROFANITY_RE = wordsRe(PROFANITY);
const RESTRICTED_RE = Object.entries(RESTRICTED).map(
  ([category, words]) => [category, wordsRe(words)] as const,
);

/** A match masked: first letter kept, the rest stars (spaces kept). */
const mask = (m: string) => m.replace(/(?<=^.)[^\s]|(?<=\S.*)[^\s]/gu, '*');

/** Where a restricted word is in the text: [start, end) in UTF-16 code units, as JavaScript counts. */
export type ContentMark = { start: number; end: number };
export type ContentCheck =
  | { ok: true }
  | { ok: false; preview: string; categories: string[]; marks: ContentMark[] };

/** The matches of `re` in `body`, as marks. */
function marksOf(body: string, re: RegExp): ContentMark[] {
  const out: ContentMark[] = [];
  for (const m of body.matchAll(new RegExp(re.source, re.flags)))
    out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** Marks sorted, overlapping ones joined (a word both profane and restricted is marked once). */
function joined(marks: ContentMark[]): ContentMark[] {
  const out: ContentMark[] = [];
  for (const m of [...marks].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const last = out[out.length - 1];
    if (last && m.start <= last.end) last.end = Math.max(last.end, m.end);
    else out.push({ ...m });
  }
  return out;
}

/**
 * The checks of one text: the categories it falls in, the preview (each match masked, same length as the
 * text) and the marks, so that the refusal dialog can show the text with the restricted words marked.
 */
export function checkContent(body: string, opts: { profanity: boolean }): ContentCheck {
  const categories: string[] = [];
  const marks: ContentMark[] = [];
  let preview = body;
  if (opts.profanity) {
    const found = marksOf(body, PROFANITY_RE);
    if (found.length > 0) {
      categories.push('profanity');
      marks.push(...found);
      preview = preview.replace(new RegExp(PROFANITY_RE.source, PROFANITY_RE.flags), mask);
    }
  }
  for (const [category, re] of RESTRICTED_RE) {
    const found = marksOf(body, re);
    if (found.length > 0) {
      categories.push(category);
      marks.push(...found);
      preview = preview.replace(new RegExp(re.source, re.flags), mask);
    }
  }
  return categories.length ? { ok: false, preview, categories, marks: joined(marks) } : { ok: true };
}
