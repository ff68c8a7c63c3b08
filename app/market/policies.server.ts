import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import type { PolicyType } from "./policy-types";

/** The policy in force now, in the visitor's language. */
export async function currentPolicy(db: DB, type: PolicyType, locale: Locale, now = new Date()) {
  return db
    .selectFrom("policies")
    .select(["type", "version", "effective_at", "body"])
    .where("type", "=", type)
    .where("language", "=", locale)
    .where("effective_at", "<=", now.toISOString())
    .orderBy("effective_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The maintenance window shown on /servicecheck, stored as an ISO interval `start/end`. */
export async function maintenanceWindow(db: DB): Promise<{ start: string; end: string } | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", "maintenance_window").executeTakeFirst();
  const [start, end] = row?.value.split("/") ?? [];
  return start && end ? { start, end } : null;
}
