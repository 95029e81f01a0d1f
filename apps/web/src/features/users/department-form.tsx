import { type TDepartment, type TUserSummary, ZDepartmentRequest } from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { MultiSelectField, SwitchField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
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
  const id = Number(useParams().id ?? 0);
  const department = useDepartment(id);
  if (!id) return <DepartmentForm key="new" department={null} />;
  if (department.isError)
    return <LoadFailed message={department.error.message} testId="department-load-error" />;
  if (!department.data) return <Loading />;
  return <DepartmentForm key={department.data.id} department={department.data} />;
}

function DepartmentForm({ department }: { department: TDepartment | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveDepartment(department?.id ?? null);
  const sms = useAgents('sms');
  const voice = useAgents('voice');
  const { form, submit } = useApiForm<DepartmentValues>({
    initialValues: valuesOf(department),
    validate,
    fields: FIELDS,
    onSubmit: (values) => save.mutateAsync(requestOf(values)),
    onSuccess: () => navigate(pathOf('business.departments')),
  });

  return (
    <FormShell
      form={form}
      title={department ? t('business.departments.edit') : t('business.departments.add')}
      onSubmit={submit}
      actions={
        <FormActions
          submitting={save.isPending}
          submitTestId="department-form-submit"
          cancelTo={pathOf('business.departments')}
        />
      }
    >
      <TextField name="name" label={t('business.departments.name')} required testId="department-form-name" />
      <MultiSelectField
        name="sms_agents"
        label={t('business.departments.sms_agents')}
        data={agentOptions(sms.data, department?.sms_agents ?? [])}
        searchable
        nothingFoundMessage={t('business.departments.no_agents')}
        testId="department-form-sms-agents"
      />
      <MultiSelectField
        name="voice_agents"
        label={t('business.departments.voice_agents')}
        data={agentOptions(voice.data, department?.voice_agents ?? [])}
        searchable
        nothingFoundMessage={t('business.departments.no_agents')}
        testId="department-form-voice-agents"
      />
      <SwitchField name="active" label={t('business.common.active')} testId="department-form-active" />
    </FormShell>
  );
}
