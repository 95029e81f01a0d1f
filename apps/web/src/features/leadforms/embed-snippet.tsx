import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** An embedded form's code (the placeholder element and the install's widget.js) with a Copy button. */
export function EmbedSnippet({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('business.leadForms.embedded.code_hint')}
      </Text>
      <Code block data-testid="embedded-embed-code">
        {code}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={() => {
                // Without the clipboard API (plain http) the code can still be selected by hand.
                if (navigator.clipboard) copy();
              }}
              data-testid="embedded-embed-copy"
            >
              {copied ? t('business.leadForms.embedded.copied') : t('business.leadForms.embedded.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
