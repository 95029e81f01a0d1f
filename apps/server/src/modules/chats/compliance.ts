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

export type ContentCheck = { ok: true } | { ok: false; preview: string; categories: string[] };

export function checkContent(body: string, opts: { profanity: boolean }): ContentCheck {
  const categories: string[] = [];
  let preview = body;
  if (opts.profanity && PROFANITY_RE.test(body)) {
    categories.push('profanity');
    preview = preview.replace(PROFANITY_RE, mask);
  }
  PROFANITY_RE.lastIndex = 0;
  for (const [category, re] of RESTRICTED_RE) {
    re.lastIndex = 0;
    if (re.test(body)) {
      categories.push(category);
      re.lastIndex = 0;
      preview = preview.replace(re, mask);
    }
    re.lastIndex = 0;
  }
  return categories.length ? { ok: false, preview, categories } : { ok: true };
}
