-- The index that unread counts probed (ADR 045) serves nothing since they are kept by counting (ADR 103), and
-- it was written on every message in.
DROP INDEX "messages_in_idx";
