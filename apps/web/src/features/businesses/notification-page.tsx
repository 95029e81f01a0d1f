import { AdminSettingPage } from './admin-setting-page.tsx';
import { NotificationSection } from './notification-section.tsx';

/** business.setting.notification: the notification section of the settings on its own. */
export default function NotificationPage() {
  return <AdminSettingPage title="business.setting.notifications" Section={NotificationSection} />;
}
