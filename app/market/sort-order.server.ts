/**
 * The one implementation of "things kept in an order" (banners and key visuals, keywords, FAQ entries, a package's
 * items, a member's licences): where a new row goes (after the last of its scope) and how one row moves a place up
 * or down (swapped with its neighbour, then the whole scope renumbered 0..n-1 so gaps and ties left by older data
 * disappear). The callers write their own audit lines with the order before and after.
 */
import { type Kysely, sql } from "kysely";
import { isPostgres } from "../db/dialect";
import type { Database } from "../db/schema";

export type MoveDirection = "up" | "down";

/** The ids in a new order: `id` swapped with its neighbour up (earlier) or down (later); at an end, or unknown, unchanged. */
export function moveInOrder(ids: readonly number[], id: number, direction: MoveDirection): number[] {
  const out = [...ids];
  const at = out.indexOf(id);
  const to = direction === "up" ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= out.length) return out;
  [out[at], out[to]] = [out[to] as number, out[at] as number];
  return out;
}

/** The tables whose rows are kept in an order, with their order column. */
const ORDER_COLUMN = {
  banners: "sort",
  keywords: "sort",
  faqs: "sort",
  package_items: "sort",
  licenses: "sort_order",
} as const;
export type OrderedTable = keyof typeof ORDER_COLUMN;

/** A scope: the columns a row shares with its siblings (a banner's page and kind, a package's id...). */
export type OrderScope = Readonly<Record<string, string | number>>;

// The tables differ in their other columns; the helper reads only id, the order column and the scope's columns.
type Loose = Kysely<Record<string, Record<string, string | number | null>>>;
const loose = (db: Kysely<Database>) => db as unknown as Loose;

/**
 * On PostgreSQL, holds the scope's order until the transaction ends, so two moves (or a move and an append) of the
 * same scope run one after the other instead of renumbering from the same stale read; SQLite's transactions are
 * serialized already.
 */
async function lockScope(trx: Kysely<Database>, table: OrderedTable, scope: OrderScope): Promise<void> {
  if (!isPostgres(trx)) return;
  const key = `order:${table}:${Object.entries(scope)
    .map(([k, v]) => `${k}=${v}`)
    .join("&")}`;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/** The place after the last row of the scope (0 in an empty one). Call it in the transaction that inserts the row. */
export async function nextSort(trx: Kysely<Database>, table: OrderedTable, scope: OrderScope = {}): Promise<number> {
  const column = ORDER_COLUMN[table];
  await lockScope(trx, table, scope);
  let q = loose(trx)
    .selectFrom(table)
    .select((eb) => eb.fn.max(column).as("last"));
  for (const [k, v] of Object.entries(scope)) q = q.where(k, "=", v);
  const row = await q.executeTakeFirst();
  return row?.last == null ? 0 : Number(row.last) + 1;
}

/** The ids of the scope's rows in their order (ties by id). */
async function orderedIds(trx: Kysely<Database>, table: OrderedTable, scope: OrderScope, idColumn: string): Promise<number[]> {
  const column = ORDER_COLUMN[table];
  let q = loose(trx).selectFrom(table).select(idColumn);
  for (const [k, v] of Object.entries(scope)) q = q.where(k, "=", v);
  const rows = await q.orderBy(column).orderBy(idColumn).execute();
  return rows.map((r) => Number(r[idColumn]));
}

/** Writes `ids` as the scope's order, 0..n-1. */
async function writeOrder(trx: Kysely<Database>, table: OrderedTable, scope: OrderScope, ids: readonly number[], idColumn: string) {
  const column = ORDER_COLUMN[table];
  for (const [place, id] of ids.entries()) {
    let q = loose(trx)
      .updateTable(table)
      .set({ [column]: place })
      .where(idColumn, "=", id);
    for (const [k, v] of Object.entries(scope)) q = q.where(k, "=", v);
    await q.execute();
  }
}

/**
 * Moves row `id` one place up or down among the rows of its scope, in the caller's transaction, and renumbers the
 * scope 0..n-1. At an end the order stays as it was (renumbered all the same). Answers the ids before and after.
 * `idColumn` names the row (package_items are named by their content_id within a package).
 */
export async function moveInScope(
  trx: Kysely<Database>,
  table: OrderedTable,
  scope: OrderScope,
  id: number,
  direction: MoveDirection,
  idColumn = "id",
): Promise<{ before: number[]; after: number[] }> {
  await lockScope(trx, table, scope);
  const before = await orderedIds(trx, table, scope, idColumn);
  const after = moveInOrder(before, id, direction);
  await writeOrder(trx, table, scope, after, idColumn);
  return { before, after };
}

/**
 * Saves a whole new order for a scope: `ids` must name each of the scope's rows once (else false, nothing written).
 */
export async function setScopeOrder(
  trx: Kysely<Database>,
  table: OrderedTable,
  scope: OrderScope,
  ids: readonly number[],
  idColumn = "id",
): Promise<boolean> {
  await lockScope(trx, table, scope);
  const own = [...(await orderedIds(trx, table, scope, idColumn))].sort((a, b) => a - b);
  const given = [...new Set(ids)].sort((a, b) => a - b);
  if (ids.length !== given.length || own.length !== given.length || own.some((id, i) => id !== given[i])) return false;
  await writeOrder(trx, table, scope, ids, idColumn);
  return true;
}
