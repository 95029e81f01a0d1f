// What the light pages' text scripts (login-texts.ts, landing-texts.ts) share: texts picked by key from
// locale trees, later trees over earlier ones (as lib/i18n.ts merges them), written to a page's texts.json.
import fs from 'node:fs';
import path from 'node:path';

export type Tree = { [k: string]: string | Tree };
export type Lang = 'en' | 'es' | 'br';
export type PickedTexts = Record<Lang, Record<string, string>>;

/** Every key of a tree, dotted. */
export function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`),
  );
}

function lookup(trees: Tree[], key: string): string | undefined {
  for (const tree of [...trees].reverse()) {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node === 'string') return node;
  }
  return undefined;
}

/** The keys' texts in each language; a key missing in a language throws. */
export function pickTexts(keys: readonly string[], treesOf: Record<Lang, Tree[]>): PickedTexts {
  const out = {} as PickedTexts;
  for (const [lang, trees] of Object.entries(treesOf) as [Lang, Tree[]][]) {
    out[lang] = {};
    for (const key of keys) {
      const text = lookup(trees, key);
      if (text === undefined) throw new Error(`no ${lang} text for ${key}`);
      out[lang][key] = text;
    }
  }
  return out;
}

/** Run as a script (`npx tsx scripts/<name>.ts`): writes the page's texts.json. */
export function writeWhenRun(scriptFile: string, textsFile: string, pick: () => PickedTexts): void {
  if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(scriptFile)) {
    fs.writeFileSync(textsFile, `${JSON.stringify(pick(), null, 2)}\n`);
    console.log(`wrote ${textsFile}`);
  }
}
