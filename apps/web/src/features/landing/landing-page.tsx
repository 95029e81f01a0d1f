import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Image,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { TLandingTextKey, TSiteData } from '@stn/contracts/site';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type PublicPageKey, PublicPageModal } from '../../components/public-page-modal.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { agencyLandingText, LANDING_TEXT_DEFAULTS } from '../../lib/landing-texts.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';
import { OptinModal } from './optin-modal.tsx';
import { TestimonialSlider } from './testimonial-slider.tsx';

// The public landing page of an agency's site (spec 000 §2 "Landing page"): texts from the site's white
// label, the agency's own landing texts and the landing locale files; no images but the site's own logos
// (the screenshot is drawn).

const PLATFORMS = ['WordPress', 'Wix', 'Squarespace', 'Shopify', 'Webflow'];

/** Scrolls to a section of the page (the header's How It Works and Features links). */
function scrollTo(id: string) {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function Header({ site, onDemo }: { site: TSiteData; onDemo: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <Box
      component="header"
      data-testid="landing-header"
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        background: 'var(--mantine-color-body)',
        borderBottom: '1px solid var(--mantine-color-gray-3)',
      }}
    >
      <Container size="lg" py="sm">
        <Group justify="space-between">
          <Anchor component={Link} to="/" data-testid="landing-logo" underline="never">
            {site.headerLogo ? (
              <Image src={site.headerLogo} alt={site.title} h={36} w="auto" />
            ) : (
              <Text fw={700}>{site.title}</Text>
            )}
          </Anchor>
          <Group gap="md">
            <Anchor
              component="button"
              type="button"
              onClick={() => scrollTo('how-it-works')}
              data-testid="landing-nav-how"
            >
              {t('landing.how_it_works')}
            </Anchor>
            <Anchor
              component="button"
              type="button"
              onClick={() => scrollTo('features')}
              data-testid="landing-nav-features"
            >
              {t('landing.features')}
            </Anchor>
            {!user && (
              <Anchor href="/login" data-testid="landing-login">
                {t('landing.login')}
              </Anchor>
            )}
            {user ? (
              <Button component={Link} to={dashboardLink(user)} data-testid="landing-header-button">
                {t('landing.dashboard')}
              </Button>
            ) : (
              <Button onClick={onDemo} data-testid="landing-header-button">
                {t('landing.request_demo')}
              </Button>
            )}
          </Group>
        </Group>
      </Container>
    </Box>
  );
}

/** The drawn text-messaging screenshot: a phone with a conversation. */
function PhoneMock() {
  const { t } = useTranslation();
  const bubble = (text: string, mine: boolean) => (
    <Box
      style={{
        alignSelf: mine ? 'flex-end' : 'flex-start',
        maxWidth: '80%',
        padding: '8px 12px',
        borderRadius: 14,
        background: mine ? 'var(--mantine-color-brand-7)' : 'var(--mantine-color-gray-2)',
        color: mine ? 'white' : 'inherit',
        fontSize: 14,
      }}
    >
      {text}
    </Box>
  );
  return (
    <Box
      data-testid="landing-screenshot"
      role="img"
      aria-label={t('landing.screenshot.title')}
      style={{
        width: 260,
        margin: '0 auto',
        border: '10px solid #222',
        borderRadius: 32,
        padding: 12,
        minHeight: 360,
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
        background: 'white',
      }}
    >
      {bubble(t('landing.screenshot.customer'), false)}
      {bubble(t('landing.screenshot.business'), true)}
      {bubble(t('landing.screenshot.customer_reply'), false)}
    </Box>
  );
}

function Section({ id, title, children }: { id?: string; title: string; children: React.ReactNode }) {
  return (
    <Box component="section" id={id} py={48} data-testid={id ? `landing-section-${id}` : undefined}>
      <Title order={2} ta="center" mb="lg">
        {title}
      </Title>
      {children}
    </Box>
  );
}

function Grid({ keys, prefix }: { keys: string[]; prefix: string }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
      {keys.map((k) => (
        <Paper key={k} withBorder p="md">
          <Text fw={600}>{t(`${prefix}.${k}`)}</Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function Steps({ prefix }: { prefix: string }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {(['one', 'two', 'three'] as const).map((k, i) => (
        <Stack key={k} align="center" gap="xs">
          <ThemeIcon size="xl" radius="xl">
            {i + 1}
          </ThemeIcon>
          <Text ta="center">{t(`${prefix}.${k}`)}</Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

export default function LandingPage({ site }: { site: TSiteData }) {
  const { t, i18n } = useTranslation();
  // The agency's own text in the current language when it set one (issue 23), else the locale's.
  const text = (key: TLandingTextKey) =>
    agencyLandingText(site.landingTexts, i18n.language, key) ?? t(LANDING_TEXT_DEFAULTS[key]);
  const [optin, setOptin] = useState(false);
  const [page, setPage] = useState<PublicPageKey | null>(null);
  const demoButton = (testId: string) => (
    <Button size="lg" onClick={() => setOptin(true)} data-testid={testId}>
      {t('landing.request_demo_today')}
    </Button>
  );
  return (
    <Box data-testid="landing-page">
      <Header site={site} onDemo={() => setOptin(true)} />
      <Container size="lg" component="main">
        <Stack align="center" py={64} gap="md" data-testid="landing-hero">
          <Title order={1} ta="center">
            {text('headline')}
          </Title>
          <Text ta="center" size="lg" c="dimmed">
            {text('subheadline')}
          </Text>
          {demoButton('landing-optin-hero')}
        </Stack>

        <Stack align="center" gap="sm" data-testid="landing-platforms">
          <Text c="dimmed">{t('landing.platforms')}</Text>
          <Group justify="center">
            {PLATFORMS.map((name) => (
              <Badge key={name} size="lg" variant="outline">
                {name}
              </Badge>
            ))}
          </Group>
        </Stack>

        <Section id="stats" title={text('stats_title')}>
          <List spacing="xs" center mx="auto" maw={520}>
            {(['one', 'two', 'three'] as const).map((k) => (
              <List.Item key={k}>{text(`stats_${k}`)}</List.Item>
            ))}
          </List>
        </Section>

        <Section id="how-it-works" title={t('landing.steps.title')}>
          <Steps prefix="landing.steps" />
        </Section>

        <Section id="screenshot" title={t('landing.screenshot.title')}>
          <PhoneMock />
        </Section>

        <Section id="features" title={t('landing.features_list.title')}>
          <Grid keys={['call_back', 'two_way', 'inbox', 'automations']} prefix="landing.features_list" />
        </Section>

        <Section id="additional-features" title={t('landing.additional.title')}>
          <Grid keys={['broadcasts', 'lead_forms', 'reports', 'integrations']} prefix="landing.additional" />
        </Section>

        <Section id="testimonials" title={t('landing.testimonials.title')}>
          <TestimonialSlider />
        </Section>

        <Section id="generate" title={text('generate_title')}>
          <Steps prefix="landing.generate" />
          <Group justify="center" mt="lg">
            {demoButton('landing-optin-generate')}
          </Group>
        </Section>

        <Section id="guarantee" title={text('guarantee_title')}>
          <Text ta="center">{text('guarantee_text')}</Text>
        </Section>
      </Container>

      <Box component="footer" bg="gray.1" py="md" data-testid="landing-footer">
        <Container size="lg">
          <Group justify="space-between">
            <Stack gap={0}>
              <Text size="sm">
                © {new Date().getFullYear()} {site.title}. {t('landing.footer.rights')}
              </Text>
              {site.address && (
                <Text size="xs" c="dimmed">
                  {site.address}
                </Text>
              )}
              {site.supportEmail && (
                <Anchor size="xs" href={`mailto:${site.supportEmail}`}>
                  {site.supportEmail}
                </Anchor>
              )}
            </Stack>
            <Group gap="md">
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => setPage('terms-of-services')}
                data-testid="landing-terms"
              >
                {t('landing.footer.terms')}
              </Anchor>
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => setPage('privacy-policy')}
                data-testid="landing-privacy"
              >
                {t('landing.footer.privacy')}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>

      <OptinModal opened={optin} onClose={() => setOptin(false)} />
      <PublicPageModal page={page} onClose={() => setPage(null)} />
    </Box>
  );
}
