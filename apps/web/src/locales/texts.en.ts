// Every text of the app in English, one chunk loaded only for a user of that language (lib/i18n.ts).
import { mergeTexts } from '../lib/texts.ts';

export default mergeTexts(
  import.meta.glob(
    ['../../../../packages/contracts/locales/en.json', '../../../../packages/contracts/locales/*.en.json'],
    {
      eager: true,
      import: 'default',
    },
  ),
  import.meta.glob(['./en.json', './*.en.json'], { eager: true, import: 'default' }),
);
