import { pathOf } from '../../lib/nav/route-table.ts';

/**
 * The inbox opened on a contact's conversation (the contact screens' "Text", ADR 052): on its install, or
 * the first one when it has none yet; the inbox opens the conversation with that phone, or starts it.
 */
export const textPath = (c: { phone: string; install_id: number | null }) =>
  `${pathOf('business.messaging', c.install_id ? { installId: c.install_id } : {})}?phone=${encodeURIComponent(c.phone)}`;
