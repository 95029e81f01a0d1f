import { Anchor, Box, Center, Flex, Group, Image, Loader, Text } from '@mantine/core';
import type { TProductData } from '@stn/contracts/orders';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { type PublicPageKey, PublicPageModal } from '../../components/public-page-modal.tsx';
import { installLandingScript, scheduleLandingScriptRemoval } from '../../lib/landing-script.ts';
import { useSite } from '../../lib/site.ts';
import { useProductData } from './api.ts';

// The free-trial layout of spec 000 §2: a header with the logo (links to /), 'Need help? Contact Support'
// and the support e-mail (subject 'Free Trial Signup Question'); a footer with a white logo, the year,
// Terms of Service and Privacy Policy and the business address. It loads the site data by host: every
// order page is the main agency's, on the main domain; on another host the page goes to the landing route.

function Header() {
  const { t } = useTranslation();
  const { data: site } = useSite();
  const email = site?.supportEmail;
  return (
    <Group justify="space-between" p="md" component="header" data-testid="order-header">
      <Anchor component={Link} to="/" data-testid="order-logo">
        {site?.headerLogo ? (
          <Image src={site.headerLogo} alt={site.title} h={36} w="auto" />
        ) : (
          <Text fw={700}>{site?.title}</Text>
        )}
      </Anchor>
      <Group gap="xs">
        <Text size="sm">{t('orderPages.need_help')}</Text>
        {email && (
          <Anchor
            size="sm"
            href={`mailto:${email}?subject=${encodeURIComponent('Free Trial Signup Question')}`}
            data-testid="order-support"
          >
            {email}
          </Anchor>
        )}
      </Group>
    </Group>
  );
}

function Footer() {
  const { t } = useTranslation();
  const { data: site } = useSite();
  const [open, setOpen] = useState<PublicPageKey | null>(null);
  return (
    <Box bg="dark.7" c="white" p="md" component="footer" data-testid="order-footer">
      <Group justify="space-between">
        <Group gap="sm">
          {site?.headerLogo && (
            <Image
              src={site.headerLogo}
              alt=""
              h={28}
              w="auto"
              style={{ filter: 'brightness(0) invert(1)' }}
            />
          )}
          <Text size="sm">
            © {new Date().getFullYear()} {site?.title}
          </Text>
        </Group>
        <Group gap="md">
          <Anchor
            component="button"
            type="button"
            c="white"
            size="sm"
            onClick={() => setOpen('terms-of-services')}
            data-testid="order-terms"
          >
            {t('layout.footer.terms')}
          </Anchor>
          <Anchor
            component="button"
            type="button"
            c="white"
            size="sm"
            onClick={() => setOpen('privacy-policy')}
            data-testid="order-privacy"
          >
            {t('layout.footer.privacy')}
          </Anchor>
        </Group>
        {site?.address && <Text size="sm">{site.address}</Text>}
      </Group>
      <PublicPageModal page={open} onClose={() => setOpen(null)} />
    </Box>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Flex direction="column" mih="100vh">
      <Header />
      <Box flex={1} p="xl">
        {children}
      </Box>
      <Footer />
    </Flex>
  );
}

/** The order pages' layout (route layout 'order'). */
export function FreeTrialLayout() {
  const site = useSite();
  if (site.isPending)
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  const d = site.data;
  // Spec §2: the order pages are the main agency's, on the main domain (an agency sells its businesses
  // through its product pages, /f/:slug, and its popup).
  const right = d?.validDomain && d.isMainDomain && d.isMainAgency;
  if (!right) return <Navigate to="/" replace />;
  return <MainAgencyOrder script={d.custom_script} />;
}

/** The main agency's order pages, with its custom script installed while they show (spec §2, ADR 079). */
function MainAgencyOrder({ script }: { script: string | null }) {
  useEffect(() => {
    installLandingScript(script);
    return () => scheduleLandingScriptRemoval();
  }, [script]);
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** The product layout: the last path segment names the product; its data goes to the nested view. */
export function ProductLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const slug = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
  const thankYou = slug === 'thank-you';
  const product = useProductData(slug);
  let body: React.ReactNode;
  if (thankYou) body = <Outlet />;
  else if (product.isPending) body = <Loader />;
  else if (product.isError)
    body = <Text data-testid="product-not-found">{t('orderPages.product_not_found')}</Text>;
  else body = <Outlet context={product.data satisfies TProductData} />;
  return <Frame>{body}</Frame>;
}
