import { PhoneListScreen } from './phone-list.tsx';

/** admin.whitelist: numbers always allowed. */
export default function WhitelistPage() {
  return <PhoneListScreen list="whitelist" />;
}
