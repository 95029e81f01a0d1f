// One language's texts for i18next, built from the locale files a `locales/texts.<lang>.ts` module
// gathers: the server's messages (packages/contracts/locales), then the web app's own screens, whose
// files win where both name a key. Each language is its own chunk, loaded when it is needed (ADR 060).
import { type Catalogue, mergeCatalogues } from '@stn/contracts/language';

export type Texts = Catalogue;

/** Merges sets of locale files (as `import.meta.glob` gives them), set after set, in file-name order. */
export function mergeTexts(...sets: Record<string, unknown>[]): Texts {
  return sets
    .flatMap((set) =>
      Object.keys(set)
        .sort()
        .map((file) => set[file] as Texts),
    )
    .reduce(mergeCatalogues, {});
}
