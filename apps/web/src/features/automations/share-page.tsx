import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useCloneAutomation, useSharedAutomation } from './api/automations.ts';

/**
 * business.automation.share (automation/:token/share): what a share link holds (its name, trigger and
 * blocks, whose it is) and "Import", which copies it into this business, inactive, and opens the copy.
 */
export default function SharePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useParams().token ?? '';
  const shared = useSharedAutomation(token);
  const clone = useCloneAutomation();
  const back = (
    <Anchor component={Link} to={pathOf('business.automation')} size="sm">
      {t('business.automations.back')}
    </Anchor>
  );
  if (shared.isError)
    return (
      <Stack>
        {back}
        <LoadFailed message={t('business.automations.share_not_found')} testId="share-not-found" />
      </Stack>
    );
  if (!shared.data) return <Loading />;
  const a = shared.data;
  return (
    <Stack maw={640}>
      <div>
        {back}
        <Title order={2} data-testid="page-title">
          {t('business.automations.share_page_title')}
        </Title>
      </div>
      <Paper withBorder p="lg" radius="md" data-testid="share-preview">
        <Stack gap="xs">
          <Text fw={600} size="lg" data-testid="share-name">
            {a.name}
          </Text>
          {a.business_name && (
            <Text size="sm" c="dimmed">
              {t('business.automations.shared_by', { name: a.business_name })}
            </Text>
          )}
          <Group gap="xs">
            <Badge variant="light">{t(`business.automations.triggers.${a.start_trigger}`)}</Badge>
          </Group>
          <Text size="sm">
            {a.block_kinds.map((k) => t(`business.automations.kinds.${k}`)).join(' → ') ||
              t('business.automations.no_blocks')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('business.automations.import_hint')}
          </Text>
          <Group justify="flex-end">
            <Button
              loading={clone.isPending}
              onClick={() =>
                clone.mutate(token, {
                  onSuccess: (res) => navigate(pathOf('business.automation.edit', { id: res.data.id })),
                })
              }
              data-testid="share-import"
            >
              {t('business.automations.import')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
