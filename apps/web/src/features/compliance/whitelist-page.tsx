import { PhoneListPage } from './phone-list-page.tsx';

/** admin.whitelist: the platform-wide whitelist. */
export default function WhitelistPage() {
  return <PhoneListPage list="whitelist" />;
}
