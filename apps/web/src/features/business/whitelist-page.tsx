import { PhoneListPage } from '../../components/phone-list/phone-list-page.tsx';

/** business.whitelist: the business's whitelist. */
export default function WhitelistPage() {
  return <PhoneListPage list="whitelist" />;
}
