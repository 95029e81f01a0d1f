import { Anchor, Button, CopyButton, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A review link with a copy button (or a note that the location has no place id). */
export function ReviewLink({ link, compact = false }: { link: string; compact?: boolean }) {
  const { t } = useTranslation();
  if (!link)
    return (
      <Text size="sm" c="dimmed">
        {t('googleBusiness.no_review_link')}
      </Text>
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <Anchor
        href={link}
        target="_blank"
        rel="noreferrer"
        size="sm"
        style={{ wordBreak: 'break-all' }}
        data-testid="google-review-link"
      >
        {compact ? t('googleBusiness.open_link') : link}
      </Anchor>
      <CopyButton value={link}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="light" onClick={copy} data-testid="google-review-copy">
            {copied ? t('googleBusiness.copied') : t('googleBusiness.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
