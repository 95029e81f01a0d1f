import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  googleReturnUrl,
  useDeleteGoogleLocation,
  useDisconnectGoogle,
  useGoogleIntegrations,
  useGoogleLocations,
  useStartGoogle,
} from '../lib/google-locations.ts';
import { pathOf } from '../lib/nav/route-table.ts';
import { FormSection } from './form/form-section.tsx';
import { ReviewLink } from './google-review-link.tsx';

/**
 * The settings screen's "Google Business locations" card (ADR 091): the Google connections (connect,
 * disconnect) and the locations tied to installs (add, edit, delete), each with its review link.
 */
export function GoogleLocationsCard() {
  const { t } = useTranslation();
  const integrations = useGoogleIntegrations();
  const locations = useGoogleLocations();
  const start = useStartGoogle();
  const disconnect = useDisconnectGoogle();
  const remove = useDeleteGoogleLocation();

  const confirm = (title: string, body: string, onConfirm: () => void) =>
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{body}</Text>,
      labels: { confirm: t('googleBusiness.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'google-confirm' },
      onConfirm,
    });

  return (
    <FormSection title={t('googleBusiness.title')} hint={t('googleBusiness.hint')} testId="google-card">
      <Stack gap="xs">
        <Text fw={500} size="sm">
          {t('googleBusiness.connections')}
        </Text>
        {(integrations.data ?? []).length === 0 && (
          <Text size="sm" c="dimmed" data-testid="google-no-connections">
            {t('googleBusiness.no_connections')}
          </Text>
        )}
        {(integrations.data ?? []).map((g) => (
          <Group key={g.id} justify="space-between" data-testid="google-connection">
            <Text size="sm">
              {g.account_name}{' '}
              {g.email && (
                <Text span c="dimmed">
                  ({g.email})
                </Text>
              )}
            </Text>
            <Button
              size="xs"
              variant="default"
              color="red"
              loading={disconnect.isPending}
              onClick={() =>
                confirm(t('googleBusiness.disconnect'), t('googleBusiness.disconnect_confirm'), () =>
                  disconnect.mutate(g.id),
                )
              }
              data-testid={`google-disconnect-${g.id}`}
            >
              {t('googleBusiness.disconnect')}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="light"
            loading={start.isPending}
            onClick={() => start.mutate(googleReturnUrl(pathOf('business.setting.location.create')))}
            data-testid="google-connect"
          >
            {t('googleBusiness.connect')}
          </Button>
        </Group>
      </Stack>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={500} size="sm">
            {t('googleBusiness.locations')}
          </Text>
          <Button
            size="xs"
            component={Link}
            to={pathOf('business.setting.location.create')}
            data-testid="google-location-add"
          >
            {t('googleBusiness.add_location')}
          </Button>
        </Group>
        {(locations.data ?? []).length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="google-no-locations">
            {t('googleBusiness.no_locations')}
          </Text>
        ) : (
          <Table data-testid="google-locations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('googleBusiness.location')}</Table.Th>
                <Table.Th>{t('googleBusiness.install')}</Table.Th>
                <Table.Th>{t('googleBusiness.review_link')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(locations.data ?? []).map((l) => (
                <Table.Tr key={l.id} data-testid={`google-location-${l.id}`}>
                  <Table.Td>
                    <Anchor component={Link} to={pathOf('business.setting.location.edit', { id: l.id })}>
                      {l.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{l.install_name}</Table.Td>
                  <Table.Td>
                    <ReviewLink link={l.review_link} compact />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() =>
                        confirm(t('googleBusiness.delete'), t('googleBusiness.delete_confirm'), () =>
                          remove.mutate(l.id),
                        )
                      }
                      data-testid={`google-location-delete-${l.id}`}
                    >
                      {t('googleBusiness.delete')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </FormSection>
  );
}
