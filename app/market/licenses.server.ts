import type { DB } from "../db/db.server";

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
