import { PhoneListPage } from './phone-list-page.tsx';

/** business.whitelist */
export default function WhitelistPage() {
  return <PhoneListPage list="whitelist" />;
}
