import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../lib/auth-store.ts';
import { installAgencyOf, installStatsQuery } from '../lib/install-stats.ts';
import { queryClient } from '../lib/query-client.ts';
import { useSite } from '../lib/site.ts';
import { Loading } from './load-state.tsx';
import { NoInstallsModal } from './no-installs-modal.tsx';

// Every 'Add Business' entry point (the top bar, the business list, the sidebar's link and the add route
// itself) asks the agency's available installs first: out of installs, 'No Installs Available' shows
// before the form opens (spec 000 §8). Admins have no install limit.

/** Where a person out of installs can write to: the site's support address, else the agency's. */
export function useSupportEmail(): string | null {
  const { user } = useAuth();
  const site = useSite();
  return site.data?.supportEmail || user?.agency?.email || null;
}

/**
 * `open(path)`: fetches the agency's install stats afresh, then opens the add form at `path`, or the
 * 'No Installs Available' modal (`modal`, to be rendered by the caller) when none are left.
 */
export function useAddBusinessGate() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const supportEmail = useSupportEmail();
  const [blocked, setBlocked] = useState(false);
  const [checking, setChecking] = useState(false);
  const open = async (path: string) => {
    const agencyId = installAgencyOf(user);
    if (agencyId !== undefined) {
      setChecking(true);
      try {
        const stats = await queryClient.fetchQuery({ ...installStatsQuery(agencyId), staleTime: 0 });
        if (stats.data.available_installs <= 0) {
          setBlocked(true);
          return;
        }
      } catch {
        // Unknown count: the add route checks again and the server refuses past the limit.
      } finally {
        setChecking(false);
      }
    }
    navigate(path);
  };
  const modal = (
    <NoInstallsModal opened={blocked} onClose={() => setBlocked(false)} supportEmail={supportEmail} />
  );
  return { open, checking, modal };
}

/**
 * Around the add form: an agency with no installs left gets the 'No Installs Available' modal instead of
 * the form (closing it goes to `onLeave`); while the count loads, a loader.
 */
export function AddBusinessGuard({ children, onLeave }: { children: ReactNode; onLeave: () => void }) {
  const { user } = useAuth();
  const supportEmail = useSupportEmail();
  const agencyId = installAgencyOf(user);
  // Counted afresh on every opening: another tab may have used the last install a moment ago.
  const stats = useQuery({
    ...installStatsQuery(agencyId ?? 0),
    enabled: agencyId !== undefined,
    refetchOnMount: 'always',
  });
  // Decided once, on the first answer after opening: a later refetch never swaps the form away.
  const decided = useRef<'form' | 'blocked' | null>(null);
  if (decided.current === null && (agencyId === undefined || stats.isError)) decided.current = 'form';
  if (decided.current === null && stats.isFetchedAfterMount && stats.data) {
    decided.current = stats.data.data.available_installs <= 0 ? 'blocked' : 'form';
  }
  if (decided.current === null) return <Loading />;
  if (decided.current === 'blocked') {
    return <NoInstallsModal opened onClose={onLeave} supportEmail={supportEmail} />;
  }
  return children;
}
