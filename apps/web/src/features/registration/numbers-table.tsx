import { Badge, Table, Text } from '@mantine/core';
import type { TNumberRegistration } from '@stn/contracts/registration';
import { useTranslation } from 'react-i18next';

/** The numbers a registration covers: may each text US phones, and if not, why (a registration.number_* key). */
export function NumbersTable(props: { numbers: TNumberRegistration[]; showBusiness: boolean }) {
  const { t } = useTranslation();
  if (props.numbers.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="registration-numbers-empty">
        {t('registration.numbers.empty')}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table data-testid="registration-numbers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('registration.numbers.number')}</Table.Th>
            {props.showBusiness && <Table.Th>{t('registration.numbers.business')}</Table.Th>}
            <Table.Th>{t('registration.numbers.kind')}</Table.Th>
            <Table.Th>{t('registration.numbers.registered')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.numbers.map((n) => (
            <Table.Tr key={n.id} data-testid={`registration-number-${n.phone_number}`}>
              <Table.Td>{n.phone_number}</Table.Td>
              {props.showBusiness && <Table.Td>{n.business_name}</Table.Td>}
              <Table.Td>
                {n.toll_free ? t('registration.numbers.toll_free') : t('registration.numbers.local')}
              </Table.Td>
              <Table.Td>
                <Badge
                  color={n.registered ? 'green' : 'orange'}
                  variant="light"
                  data-testid={`registration-number-state-${n.phone_number}`}
                  data-registered={n.registered}
                >
                  {n.registered ? t('registration.numbers.yes') : t('registration.numbers.no')}
                </Badge>
                {!n.registered && n.reason && (
                  <Text size="xs" c="dimmed">
                    {t(n.reason)}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
