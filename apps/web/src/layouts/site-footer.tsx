import { Anchor, Group, Image, Text } from '@mantine/core';
import { useSite } from '../lib/site.ts';

/** Order and popup footer: copyright, site title, header logo, terms and privacy links (spec 000 §2). */
export function SiteFooter() {
  const { data: site } = useSite();
  return (
    <Group justify="space-between" p="md" bg="gray.1" component="footer">
      <Group gap="sm">
        {site?.headerLogo && <Image src={site.headerLogo} alt="" h={28} w="auto" />}
        <Text size="sm">
          © {new Date().getFullYear()} {site?.title}
        </Text>
      </Group>
      <Group gap="md">
        <Anchor size="sm" href="/?page=terms-of-services">
          Terms of Service
        </Anchor>
        <Anchor size="sm" href="/?page=privacy-policy">
          Privacy Policy
        </Anchor>
      </Group>
    </Group>
  );
}
