import { useTranslation } from 'react-i18next';
import { CodeSnippet } from '../../components/code-snippet.tsx';

/** An embedded form's code (the placeholder element and the install's widget.js) with a Copy button. */
export function EmbedSnippet({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <CodeSnippet
      code={code}
      hint={t('business.leadForms.embedded.code_hint')}
      copy={t('business.leadForms.embedded.copy')}
      copied={t('business.leadForms.embedded.copied')}
      testId="embedded-embed"
    />
  );
}
