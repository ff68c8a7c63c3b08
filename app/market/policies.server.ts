import type { DB } from "../db/db.server";
import type { Locale } from "../i18n/config";
import type { PolicyType } from "./policy-types";
import { serviceModes } from "./service-modes.server";

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

/**
 * What /servicecheck shows: the maintenance window (an ISO interval `start/end` in settings) and the operator's text
 * in the visitor's language, switched from the console (service-modes.server.ts) and seen within its short cache.
 */
export async function maintenanceWindow(db: DB, locale: Locale): Promise<{ window: { start: string; end: string } | null; text: string }> {
  const modes = await serviceModes(db);
  return { window: modes.window, text: modes.text[locale] };
}
