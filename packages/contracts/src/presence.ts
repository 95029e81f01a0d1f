// The widget's presence heartbeat (ADR 083), without zod: the widget imports these, and its size counts.

/** A visitor counts as having the widget open when its last heartbeat is this recent. */
export const PRESENCE_WINDOW_SECONDS = 75;
/** How often the open widget says so (well inside the window, so one lost beat does not drop it). */
export const PRESENCE_BEAT_SECONDS = 30;
/** The widget API's heartbeat path (under /api/widget); `key`, `visitor` and `open` go in the query. */
export const PRESENCE_PATH = '/v1/presence';
