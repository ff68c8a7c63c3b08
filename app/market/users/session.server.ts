import type { DB } from "../../db/db.server";

export interface Viewer {
  id: number;
  nickname: string;
  userType: number;
  email: string;
}

/**
 * The signed-in user for a session token, or null when the session is missing or expired.
 * Logged in means both gt and gsi exist (spec section 4); the caller passes what it read.
 */
export async function findViewer(db: DB, sessionId: string | null, hasGsi: boolean, now = new Date()): Promise<Viewer | null> {
  if (!sessionId || !hasGsi) return null;
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["users.id", "users.nickname", "users.user_type", "users.email"])
    .where("sessions.id", "=", sessionId)
    .where("sessions.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row ? { id: row.id, nickname: row.nickname, userType: row.user_type, email: row.email } : null;
}
