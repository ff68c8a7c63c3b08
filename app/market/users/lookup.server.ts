import type { DB } from "../../db/db.server";

/**
 * Finding members and licences for the operator console (/admin/members): by e-mail or nickname (a part of either,
 * any case) and by licence key (a part of the serial). An empty query lists the newest members.
 */
export const MEMBER_PAGE_SIZE = 20;

export interface MemberHit {
  id: number;
  email: string;
  nickname: string;
  userType: number;
  createdAt: string;
}

export interface LicenceHit {
  id: number;
  serial: string;
  email: string;
  ownerKind: string;
  status: string;
  licenseType: string;
  userId: number | null;
  memberEmail: string | null;
}

const likeOf = (q: string) => `%${q.toLowerCase().replace(/[%_\\]/g, "")}%`;

export async function findMembers(
  db: DB,
  query: string,
  page: number,
): Promise<{ rows: MemberHit[]; total: number; page: number; pages: number; licences: LicenceHit[] }> {
  const q = query.trim();
  let members = db.selectFrom("users");
  if (q) {
    const like = likeOf(q);
    members = members.where((eb) => eb.or([eb(eb.fn("lower", ["email"]), "like", like), eb(eb.fn("lower", ["nickname"]), "like", like)]));
  }
  const count = await members.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const pages = Math.max(1, Math.ceil(total / MEMBER_PAGE_SIZE));
  const at = Math.min(Math.max(1, page), pages);
  const [rows, licences] = await Promise.all([
    members
      .select(["id", "email", "nickname", "user_type", "created_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .offset((at - 1) * MEMBER_PAGE_SIZE)
      .limit(MEMBER_PAGE_SIZE)
      .execute(),
    q.length >= 4
      ? db
          .selectFrom("licenses")
          .leftJoin("users", "users.id", "licenses.user_id")
          .select([
            "licenses.id",
            "licenses.serial",
            "licenses.email",
            "licenses.owner_kind",
            "licenses.status",
            "licenses.license_type",
            "licenses.user_id",
            "users.email as member_email",
          ])
          .where((eb) => eb(eb.fn("lower", ["licenses.serial"]), "like", likeOf(q)))
          .orderBy("licenses.serial")
          .limit(MEMBER_PAGE_SIZE)
          .execute()
      : Promise.resolve([]),
  ]);
  return {
    total,
    page: at,
    pages,
    rows: rows.map((r) => ({ id: r.id, email: r.email, nickname: r.nickname, userType: r.user_type, createdAt: r.created_at })),
    licences: licences.map((l) => ({
      id: l.id,
      serial: l.serial,
      email: l.email,
      ownerKind: l.owner_kind,
      status: l.status,
      licenseType: l.license_type,
      userId: l.user_id,
      memberEmail: l.member_email,
    })),
  };
}

/** When the member joined and in which language they use the market (the profile's console-only fields). */
export async function memberSince(db: DB, userId: number): Promise<{ createdAt: string; language: string } | null> {
  const row = await db.selectFrom("users").select(["created_at", "language"]).where("id", "=", userId).executeTakeFirst();
  return row ? { createdAt: row.created_at, language: row.language } : null;
}
