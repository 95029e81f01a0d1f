import { AgencyList } from './agency-list.tsx';

/** Active agency accounts (admin.agency.accounts, and the admin area's default). */
export default function AgencyAccountsPage() {
  return <AgencyList status="active" />;
}
