import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/load-state.tsx';
import { usePage } from './api/pages.ts';

/**
 * The training page written by the platform admins (GET /v1/pages/training), read-only. Its HTML is shown
 * in a sandboxed frame: no script of it runs and it cannot reach this page.
 */
export default function TrainingPage() {
  const { t } = useTranslation();
  const page = usePage('training');
  const content = page.data?.content.trim() ?? '';
  return (
    <Stack maw={1000}>
      <Title order={2} data-testid="page-title">
        {page.data?.title || t('menu.training')}
      </Title>
      {page.isPending ? (
        <Loading />
      ) : content ? (
        <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
          <iframe
            title={page.data?.title || t('menu.training')}
            sandbox=""
            srcDoc={content}
            style={{ width: '100%', minHeight: '70vh', border: 0, display: 'block' }}
            data-testid="training-content"
          />
        </Paper>
      ) : (
        <Text c="dimmed" data-testid="training-empty">
          {t('agency.training.empty')}
        </Text>
      )}
    </Stack>
  );
}
