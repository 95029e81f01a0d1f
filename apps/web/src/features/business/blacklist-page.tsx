import { PhoneListPage } from './phone-list-page.tsx';

/** business.blacklist */
export default function BlacklistPage() {
  return <PhoneListPage list="blacklist" />;
}
