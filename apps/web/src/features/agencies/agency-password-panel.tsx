import { type TAgency, ZChangeAgencyPasswordRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { SetPasswordForm } from '../../components/set-password-form.tsx';
import { useChangeAgencyPassword } from './api/agencies.ts';

/** Sets the agency admin's password (PUT /v1/agencies/{id}/change-password); their sessions end. */
export function AgencyPasswordPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const change = useChangeAgencyPassword(agency.id);
  return (
    <SetPasswordForm
      title={t('admin.agency_password.title')}
      hint={
        agency.user
          ? t('admin.agency_password.hint', { email: agency.user.email })
          : t('agencies.no_agency_admin')
      }
      labels={{
        password: t('admin.agency_password.password'),
        confirmation: t('admin.agency_password.password_confirmation'),
        submit: t('admin.agency_password.submit'),
      }}
      testIds={{
        password: 'agency-password',
        confirmation: 'agency-password-confirmation',
        submit: 'agency-password-submit',
      }}
      schema={ZChangeAgencyPasswordRequest}
      onSave={(values) => change.mutateAsync(values)}
      pending={change.isPending}
      disabled={!agency.user}
    />
  );
}
