import { Alert, Button, Group, MultiSelect, Paper, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TDepartment, type TUserSummary, ZDepartmentRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useAgents } from './api/business-users.ts';
import { useDepartment, useSaveDepartment } from './api/departments.ts';

type DepartmentValues = { name: string; active: boolean; sms_agents: string[]; voice_agents: string[] };
const FIELDS = ['name', 'active', 'sms_agents', 'voice_agents'] as const;

const valuesOf = (d: TDepartment | null): DepartmentValues => ({
  name: d?.name ?? '',
  active: d?.active ?? true,
  sms_agents: d?.sms_agents.map((a) => String(a.id)) ?? [],
  voice_agents: d?.voice_agents.map((a) => String(a.id)) ?? [],
});

const requestOf = (v: DepartmentValues) => ({
  name: v.name,
  active: v.active,
  sms_agents: v.sms_agents.map(Number),
  voice_agents: v.voice_agents.map(Number),
});

const resolve = zodResolver(ZDepartmentRequest);
const validate = (v: DepartmentValues) => resolve(requestOf(v));

const agentLabel = (a: TUserSummary) => `${a.first_name} ${a.last_name}`.trim() || a.email;

/** The picker's options: the channel's agents, plus those already in the department (kept visible). */
function agentOptions(agents: TUserSummary[] | undefined, current: TUserSummary[]) {
  const byId = new Map<number, TUserSummary>();
  for (const a of [...(agents ?? []), ...current]) byId.set(a.id, a);
  return [...byId.values()].map((a) => ({ value: String(a.id), label: agentLabel(a) }));
}

/** Add a department (business.departments.create) or edit one (business.departments.edit). */
export default function DepartmentFormPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const department = useDepartment(id);
  if (!id) return <DepartmentForm key="new" department={null} />;
  if (department.isError)
    return (
      <Alert color="red" data-testid="department-load-error">
        {department.error instanceof ApiError ? department.error.message : t('business.common.load_failed')}
      </Alert>
    );
  if (!department.data) return <Loading />;
  return <DepartmentForm key={department.data.id} department={department.data} />;
}

function DepartmentForm({ department }: { department: TDepartment | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveDepartment(department?.id ?? null);
  const sms = useAgents('sms');
  const voice = useAgents('voice');
  const form = useForm<DepartmentValues>({ initialValues: valuesOf(department), validate });

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(requestOf(values));
      navigate(pathOf('business.departments'));
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });

  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {department ? t('business.departments.edit') : t('business.departments.add')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <TextInput
              label={t('business.departments.name')}
              required
              data-testid="department-form-name"
              {...form.getInputProps('name')}
            />
            <MultiSelect
              label={t('business.departments.sms_agents')}
              data={agentOptions(sms.data, department?.sms_agents ?? [])}
              searchable
              nothingFoundMessage={t('business.departments.no_agents')}
              data-testid="department-form-sms-agents"
              {...form.getInputProps('sms_agents')}
            />
            <MultiSelect
              label={t('business.departments.voice_agents')}
              data={agentOptions(voice.data, department?.voice_agents ?? [])}
              searchable
              nothingFoundMessage={t('business.departments.no_agents')}
              data-testid="department-form-voice-agents"
              {...form.getInputProps('voice_agents')}
            />
            <Switch
              label={t('business.common.active')}
              data-testid="department-form-active"
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={pathOf('business.departments')}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending} data-testid="department-form-submit">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </Stack>
  );
}
