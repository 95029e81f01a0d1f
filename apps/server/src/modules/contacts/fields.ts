import type { TContactField, TContactFieldUpdate, TContactFieldWrite } from '@stn/contracts/contacts';
import { and, asc, eq } from 'drizzle-orm';
import { invalid } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, found } from '../../platform/tenancy/context.ts';
import { contactFields } from './tables.ts';

// A business's custom contact fields (GET /v1/contacts/fields). A field's key names its value in
// contacts.fields, an import column and a template placeholder, so it never changes once made.

type FieldRow = typeof contactFields.$inferSelect;

/** Names the import and the contact itself use: a custom field may not take one. */
const RESERVED = new Set([
  'id',
  'phone',
  'first_name',
  'last_name',
  'name',
  'email',
  'birthday',
  'anniversary',
  'tags',
]);

const toField = (r: FieldRow): TContactField => ({
  id: r.id,
  key: r.key,
  label: r.label,
  type: r.type,
  active: r.active,
  created_at: r.created_at.toISOString(),
});

const mine = (ctx: Ctx) => eq(contactFields.business_id, businessOf(ctx).businessId);

export async function listFieldRows(ctx: Ctx, activeOnly = false): Promise<FieldRow[]> {
  return ctx.db
    .select()
    .from(contactFields)
    .where(and(mine(ctx), activeOnly ? eq(contactFields.active, true) : undefined))
    .orderBy(asc(contactFields.id));
}

export async function listFields(ctx: Ctx, input: { activeOnly?: boolean } = {}): Promise<TContactField[]> {
  return (await listFieldRows(ctx, input.activeOnly)).map(toField);
}

/** The key from the label when none is given: "Favourite colour" -> favourite_colour. */
function keyOf(label: string): string {
  const k = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return /^[a-z]/.test(k) ? k : `field_${k}`.replace(/_+$/, '');
}

export async function createField(ctx: Ctx, input: TContactFieldWrite): Promise<TContactField> {
  const { businessId } = businessOf(ctx);
  const key = input.key ?? keyOf(input.label);
  const field = input.key ? 'key' : 'label';
  if (RESERVED.has(key)) throw invalid(field, 'contacts.field_key_reserved');
  const [row] = await ctx.db
    .insert(contactFields)
    .values({ business_id: businessId, key, label: input.label, type: input.type, active: input.active })
    .onConflictDoNothing()
    .returning();
  if (!row) throw invalid(field, 'contacts.field_key_taken');
  return toField(row);
}

export async function updateField(
  ctx: Ctx,
  input: TContactFieldUpdate & { id: number },
): Promise<TContactField> {
  const { id, ...changes } = input;
  const [row] = await ctx.db
    .update(contactFields)
    .set({ ...changes, updated_at: new Date() })
    .where(and(mine(ctx), eq(contactFields.id, id)))
    .returning();
  return toField(found(row));
}

/** Deletes a field; the values contacts hold under its key stay in their record until edited. */
export async function deleteField(ctx: Ctx, input: { id: number }): Promise<void> {
  const [row] = await ctx.db
    .delete(contactFields)
    .where(and(mine(ctx), eq(contactFields.id, input.id)))
    .returning();
  found(row);
}
