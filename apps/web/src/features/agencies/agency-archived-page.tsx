import { AgencyList } from './agency-list.tsx';

/** Archived agency accounts (admin.agency.archived): restore or delete for good. */
export default function AgencyArchivedPage() {
  return <AgencyList status="archived" />;
}
