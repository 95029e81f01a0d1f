import { PhoneListPage } from './phone-list-page.tsx';

/** admin.blacklist: the platform-wide blacklist. */
export default function BlacklistPage() {
  return <PhoneListPage list="blacklist" />;
}
