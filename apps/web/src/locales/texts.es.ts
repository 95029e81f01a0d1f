// Every text of the app in Spanish, one chunk loaded only for a user of that language (lib/i18n.ts).
import { mergeTexts } from '../lib/texts.ts';

export default mergeTexts(
  import.meta.glob(
    ['../../../../packages/contracts/locales/es.json', '../../../../packages/contracts/locales/*.es.json'],
    {
      eager: true,
      import: 'default',
    },
  ),
  import.meta.glob(['./es.json', './*.es.json'], { eager: true, import: 'default' }),
);
