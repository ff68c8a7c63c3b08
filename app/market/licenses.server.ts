import type { DB } from "../db/db.server";
import { readAliasSheet, type SheetRefusal, SheetRefused } from "./alias-sheet.server";
import { MarketError } from "./errors";
import { ALIAS_MAX } from "./license-rules";
import { hitAll, RULES, type Rule, refund } from "./rate-limits.server";
import { moveInOrder, nextSort, setScopeOrder } from "./sort-order.server";

export interface LicenseIdentity {
  id: number;
  serial: string;
  alias: string | null;
  email: string;
  ownerKind: "individual" | "b2bg" | "nonmember";
  userId: number | null;
  ownerNickname: string | null;
  pcName: string | null;
  status: string;
  licenseType: string;
  validUntil: string | null;
  productVersion: string;
}

/**
 * The licence an editor installation speaks for: its product key (the `license_id` header) and the
 * hardware fingerprint it was registered on (`hw_info`). Both must match; released licences do not count.
 */
export async function identifyLicense(db: DB, serial: string, hwInfo: string): Promise<LicenseIdentity | null> {
  const row = await db
    .selectFrom("licenses")
    .leftJoin("users", "users.id", "licenses.user_id")
    .select([
      "licenses.id",
      "licenses.serial",
      "licenses.alias",
      "licenses.email",
      "licenses.owner_kind",
      "licenses.user_id",
      "users.nickname",
      "licenses.pc_name",
      "licenses.status",
      "licenses.license_type",
      "licenses.valid_until",
      "licenses.product_version",
    ])
    .where("licenses.serial", "=", serial)
    .where("licenses.hw_info", "=", hwInfo)
    .where("licenses.status", "!=", "released")
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    serial: row.serial,
    alias: row.alias,
    email: row.email,
    ownerKind: row.owner_kind as LicenseIdentity["ownerKind"],
    userId: row.user_id,
    ownerNickname: row.nickname,
    pcName: row.pc_name,
    status: row.status,
    licenseType: row.license_type,
    validUntil: row.valid_until,
    productVersion: row.product_version,
  };
}

export interface MemberLicense {
  id: number;
  serial: string;
  alias: string | null;
  email: string;
  status: string;
  licenseType: string;
  pcName: string | null;
  validUntil: string | null;
  remainingDays: number | null;
  sortOrder: number;
}

/** The member's licences in their chosen order, optionally searched by keyword (alias, key, PC, e-mail) and type. */
export async function listMemberLicenses(
  db: DB,
  userId: number,
  filter: { keyword?: string; type?: string } = {},
  now = new Date(),
): Promise<MemberLicense[]> {
  let q = db.selectFrom("licenses").selectAll().where("user_id", "=", userId);
  if (filter.type) q = q.where("license_type", "=", filter.type);
  if (filter.keyword) {
    const like = `%${filter.keyword.toLowerCase()}%`;
    q = q.where((eb) =>
      eb.or(
        (["alias", "serial", "pc_name", "email"] as const).map((c) => eb(eb.fn("lower", [eb.fn.coalesce(c, eb.val(""))]), "like", like)),
      ),
    );
  }
  const rows = await q.orderBy("sort_order").orderBy("id").execute();
  return rows.map((r) => ({
    id: r.id,
    serial: r.serial,
    alias: r.alias,
    email: r.email,
    status: r.status,
    licenseType: r.license_type,
    pcName: r.pc_name,
    validUntil: r.valid_until,
    remainingDays: r.valid_until ? Math.max(0, Math.ceil((Date.parse(r.valid_until) - now.getTime()) / 86_400_000)) : null,
    sortOrder: r.sort_order,
  }));
}

/** Renames one of the member's licences (an empty alias clears it); false when the licence is not the member's. */
export async function setLicenseAlias(db: DB, userId: number, licenseId: number, alias: string): Promise<boolean> {
  const value = alias.trim().slice(0, ALIAS_MAX) || null;
  const result = await db
    .updateTable("licenses")
    .set({ alias: value })
    .where("id", "=", licenseId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Renames several of the member's licences at once, all or none: a licence that is not the member's (another
 * member's, or none) refuses the whole list with the same 404 whether or not it exists.
 */
export async function setLicenseAliases(db: DB, userId: number, list: { id: number; alias: string }[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    for (const item of list)
      if (!(await setLicenseAlias(trx, userId, item.id, item.alias)))
        throw new MarketError("LICENSE_NOT_FOUND", 404, "No license key with this information found. Please check again.");
    return list.length;
  });
}

/** Saves a new order: `ids` must be exactly the member's licences. */
export async function reorderLicenses(db: DB, userId: number, ids: number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await setScopeOrder(trx, "licenses", { user_id: userId }, ids)))
      throw new MarketError("BAD_ORDER", 400, "order must list each of your licences once");
  });
}

/** Moves one licence a place up or down (the keyboard and no-JavaScript alternative to dragging). */
export async function moveLicense(db: DB, userId: number, licenseId: number, direction: "up" | "down"): Promise<void> {
  const ids = (await listMemberLicenses(db, userId)).map((l) => l.id);
  const moved = moveInOrder(ids, licenseId, direction);
  if (moved.every((id, i) => id === ids[i])) return;
  await reorderLicenses(db, userId, moved);
}

export interface AliasRowResult {
  row: number;
  serial: string;
  ok: boolean;
  problem?: "missing" | "not_found" | "too_long";
}

/** Applies aliases from a sheet (product key, alias per row), one transaction; reports each row. */
export async function importAliases(db: DB, userId: number, rows: { serial: string; alias: string }[]): Promise<AliasRowResult[]> {
  return db.transaction().execute(async (trx) => {
    const results: AliasRowResult[] = [];
    for (const [i, r] of rows.entries()) {
      const row = i + 1;
      const serial = r.serial.trim();
      if (!serial || !r.alias.trim()) {
        results.push({ row, serial, ok: false, problem: "missing" });
        continue;
      }
      if ([...r.alias.trim()].length > ALIAS_MAX) {
        results.push({ row, serial, ok: false, problem: "too_long" });
        continue;
      }
      const result = await trx
        .updateTable("licenses")
        .set({ alias: r.alias.trim() })
        .where("serial", "=", serial)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      results.push(Number(result.numUpdatedRows) === 1 ? { row, serial, ok: true } : { row, serial, ok: false, problem: "not_found" });
    }
    return results;
  });
}

export type AliasSheetImport = { ok: true; results: AliasRowResult[] } | { ok: false; reason: SheetRefusal };

/**
 * Applies an uploaded alias sheet (see alias-sheet.server.ts for how a hostile file is kept in bounds). `tooLarge`
 * says the upload was cut off by the form's limits before the file was whole. Refusals are answers, not errors.
 */
export async function importAliasSheet(
  db: DB,
  userId: number,
  upload: { file: FormDataEntryValue | null; tooLarge: boolean },
): Promise<AliasSheetImport> {
  if (upload.tooLarge) return { ok: false, reason: "too_large" };
  const file = upload.file;
  if (!(file instanceof File) || file.size === 0) return { ok: false, reason: "unreadable" };
  let rows: { serial: string; alias: string }[];
  try {
    rows = await readAliasSheet(file.name, new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    if (error instanceof SheetRefused) return { ok: false, reason: error.reason };
    throw error;
  }
  return { ok: true, results: await importAliases(db, userId, rows) };
}

export type LinkResult = { outcome: "LINKED" | "NOT_FOUND" } | { outcome: "TOO_MANY_ATTEMPTS"; retryAfterMs: number };

/**
 * Links a licence bought without an account (key and licensing e-mail must match) to the member. Limited per
 * address and per member (failures count; a link gives its attempt back). A stranger learns nothing: a key that
 * does not exist, another e-mail, and a licence that already belongs to an account all run the same single
 * query and get the same NOT_FOUND.
 */
export async function linkNonMemberLicense(
  db: DB,
  userId: number,
  input: { serial: string; email: string; ip: string },
  now = new Date(),
): Promise<LinkResult> {
  const limits: [Rule, string][] = [
    [RULES.linkAddress, input.ip],
    [RULES.linkAccount, `u:${userId}`],
  ];
  const admitted = await hitAll(db, limits, now);
  if (!admitted.allowed) return { outcome: "TOO_MANY_ATTEMPTS", retryAfterMs: admitted.retryAfterMs };
  const linked = await db.transaction().execute(async (trx) => {
    const licence = await trx
      .selectFrom("licenses")
      .select(["id", "owner_kind", "user_id"])
      .where("serial", "=", input.serial.trim())
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", input.email.trim().toLowerCase()))
      .executeTakeFirst();
    if (!licence) return false;
    if (licence.user_id === userId) return true; // already the member's: nothing to do
    if (licence.owner_kind !== "nonmember" || licence.user_id !== null) return false;
    const sortOrder = await nextSort(trx, "licenses", { user_id: userId });
    const result = await trx
      .updateTable("licenses")
      .set({ user_id: userId, owner_kind: "individual", sort_order: sortOrder })
      .where("id", "=", licence.id)
      .where("user_id", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  });
  if (!linked) return { outcome: "NOT_FOUND" };
  for (const [rule, key] of limits) await refund(db, rule.bucket, key, now);
  return { outcome: "LINKED" };
}

/** Whether a member holds a licence that lets them use market content now (registered or unlimited, in term). */
export async function hasActiveLicense(db: DB, userId: number, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom("licenses")
    .select("id")
    .where("user_id", "=", userId)
    .where("status", "in", ["registered", "unlimited"])
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">", now.toISOString())]))
    .executeTakeFirst();
  return Boolean(row);
}

/** How a licence is named to its owner: its alias and product key, or the key alone. */
export const licenceLabel = (l: { alias: string | null; serial: string }) => (l.alias ? `${l.alias} · ${l.serial}` : l.serial);
