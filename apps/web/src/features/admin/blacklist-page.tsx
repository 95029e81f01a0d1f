import { PhoneListScreen } from './phone-list.tsx';

/** admin.blacklist: numbers that may not text or call. */
export default function BlacklistPage() {
  return <PhoneListScreen list="blacklist" />;
}
