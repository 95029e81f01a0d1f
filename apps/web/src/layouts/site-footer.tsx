import { Anchor, Group, Image, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PublicPageKey, PublicPageModal, usePublicPage } from '../components/public-page-modal.tsx';
import { useSite } from '../lib/site.ts';

/**
 * Order and popup footer: copyright, site title, header logo, terms and privacy links (spec 000 §2). The
 * links open the public page modal on this page; a page the site has not written shows no link (ADR 053).
 */
export function SiteFooter() {
  const { t } = useTranslation();
  const { data: site } = useSite();
  const [open, setOpen] = useState<PublicPageKey | null>(null);
  const terms = usePublicPage('terms-of-services');
  const privacy = usePublicPage('privacy-policy');
  const link = (key: PublicPageKey, label: string, testId: string) => (
    <Anchor component="button" type="button" size="sm" onClick={() => setOpen(key)} data-testid={testId}>
      {label}
    </Anchor>
  );
  return (
    <Group justify="space-between" p="md" bg="gray.1" component="footer">
      <Group gap="sm">
        {site?.headerLogo && <Image src={site.headerLogo} alt="" h={28} w="auto" />}
        <Text size="sm">
          © {new Date().getFullYear()} {site?.title}
        </Text>
      </Group>
      <Group gap="md">
        {terms.data && link('terms-of-services', t('layout.footer.terms'), 'footer-terms')}
        {privacy.data && link('privacy-policy', t('layout.footer.privacy'), 'footer-privacy')}
      </Group>
      <PublicPageModal page={open} onClose={() => setOpen(null)} />
    </Group>
  );
}
