import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSupportEmail } from '../../components/add-business-gate.tsx';
import { Loading } from '../../components/load-state.tsx';
import { NoInstallsModal } from '../../components/no-installs-modal.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { canCreateInstall } from './api/installs.ts';
import { InstallWizard } from './install-wizard.tsx';

/**
 * 'installs/add' (business.installs.add): the install wizard, after asking can-create-install afresh; at
 * the limit, 'No Installs Available' instead (closing it goes to the list). When the count cannot be
 * read the wizard opens and the server refuses past the limit.
 */
export default function InstallAddPage() {
  const navigate = useNavigate();
  const supportEmail = useSupportEmail();
  const can = useQuery({
    queryKey: keys.installs.canCreate(),
    queryFn: canCreateInstall,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });
  // Decided once, on the first answer: the wizard's own install uses up the count, and a refetch must not
  // swap the wizard away for the dialog halfway through.
  const decided = useRef<'wizard' | 'blocked' | null>(null);
  if (decided.current === null && can.isError) decided.current = 'wizard';
  if (decided.current === null && can.isFetchedAfterMount && can.data)
    decided.current = can.data.can_create ? 'wizard' : 'blocked';
  if (decided.current === null) return <Loading />;
  if (decided.current === 'blocked')
    return (
      <NoInstallsModal
        opened
        onClose={() => navigate(pathOf('business.installs'))}
        supportEmail={supportEmail}
      />
    );
  return <InstallWizard install={null} />;
}
