ALTER TABLE "users" ADD COLUMN "suspended_by" text;--> statement-breakpoint
-- Users disabled by a business delete carried the business's deleted_at as their updated_at.
UPDATE "users" SET "suspended_by" = 'business:' || b."id"
  FROM "businesses" b
  WHERE "users"."business_id" = b."id" AND b."status" = 'deleted' AND b."deleted_at" IS NOT NULL
    AND "users"."active" = false AND "users"."updated_at" = b."deleted_at";--> statement-breakpoint
-- Users disabled by an agency archive were listed in the agency's settings.archived_user_ids.
UPDATE "users" SET "suspended_by" = 'agency:' || a."id"
  FROM "agencies" a
  WHERE "users"."agency_id" = a."id" AND a."status" = 'archived' AND "users"."active" = false
    AND jsonb_typeof(a."settings" -> 'archived_user_ids') = 'array'
    AND (a."settings" -> 'archived_user_ids') @> to_jsonb("users"."id");--> statement-breakpoint
UPDATE "agencies" SET "settings" = "settings" - 'archived_user_ids' WHERE "settings" ? 'archived_user_ids';
