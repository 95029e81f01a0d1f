// Every text of the app in Brazilian Portuguese, one chunk loaded only for a user of that language (lib/i18n.ts).
import { mergeTexts } from '../lib/texts.ts';

export default mergeTexts(
  import.meta.glob(
    ['../../../../packages/contracts/locales/br.json', '../../../../packages/contracts/locales/*.br.json'],
    {
      eager: true,
      import: 'default',
    },
  ),
  import.meta.glob(['./br.json', './*.br.json'], { eager: true, import: 'default' }),
);
