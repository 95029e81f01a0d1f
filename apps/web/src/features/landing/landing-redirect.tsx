import { Navigate } from 'react-router';
import { useAuth } from '../../lib/auth-store.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';

/**
 * '/' until the public landing page lands with its own issue: a signed-in user goes to their dashboard,
 * anyone else to sign in (what the spec does for a site without a landing page).
 */
export default function LandingRedirect() {
  const { user } = useAuth();
  return <Navigate to={user ? dashboardLink(user) : '/login'} replace />;
}
