import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSupportEmail } from '../../components/add-business-gate.tsx';
import { NoInstallsModal } from '../../components/no-installs-modal.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { fetchCanCreateInstall } from './api/installs.ts';

/**
 * 'Add install': asks POST /v1/business/can-create-install first; a business at its limit gets the spec's
 * 'No Installs Available' dialog (the one the agencies' 'Add Business' shows) instead of the wizard.
 */
export function useAddInstallGate() {
  const navigate = useNavigate();
  const supportEmail = useSupportEmail();
  const [blocked, setBlocked] = useState(false);
  const [checking, setChecking] = useState(false);
  const open = async () => {
    setChecking(true);
    try {
      const answer = await fetchCanCreateInstall();
      if (!answer.can_create) {
        setBlocked(true);
        return;
      }
    } catch {
      // Unknown count: the wizard checks again and the server refuses past the limit.
    } finally {
      setChecking(false);
    }
    navigate(pathOf('business.installs.add'));
  };
  const modal = (
    <NoInstallsModal opened={blocked} onClose={() => setBlocked(false)} supportEmail={supportEmail} />
  );
  return { open, checking, modal };
}
