-- Texts stored but not handed to the carrier (queued, no carrier id, not a broadcast's): few at any moment;
-- the sweep of those a dead process left finds them by this index (ADR 128).
CREATE INDEX "messages_unhanded_idx" ON "messages" USING btree ("updated_at") WHERE "messages"."status" = 'queued' and "messages"."carrier_sid" is null and "messages"."direction" = 'out' and "messages"."broadcast_id" is null;
