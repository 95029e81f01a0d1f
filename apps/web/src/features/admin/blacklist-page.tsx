import { PhoneListPage } from '../../components/phone-list/phone-list-page.tsx';

/** admin.blacklist: the platform-wide blacklist. */
export default function BlacklistPage() {
  return <PhoneListPage list="blacklist" />;
}
