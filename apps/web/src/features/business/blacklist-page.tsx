import { PhoneListPage } from '../../components/phone-list/phone-list-page.tsx';

/** business.blacklist: the business's blacklist. */
export default function BlacklistPage() {
  return <PhoneListPage list="blacklist" />;
}
