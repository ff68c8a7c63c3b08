import { randomBytes } from "node:crypto";
import type { DB } from "../../app/db/db.server";
import { joinMarket } from "../../app/market/users/auth.server";
import { shopCookies } from "../../app/utils/cookies.server";
import { parseEnv } from "../../app/utils/env.server";

/** The test app's cookies (createTestApp signs with this secret). */
const cookies = shopCookies(parseEnv({ SESSION_SECRET: "test-secret-test-secret" }));

/** A browser's cookie jar: sends what the app set, drops what it expired. */
export class Jar {
  private readonly values = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.values.set(k, v);
  }
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1);
      const expired = attrs.some((a) => /max-age=0/i.test(a) || /expires=thu, 01 jan 1970/i.test(a)) || value === "";
      if (expired) this.values.delete(name);
      else this.values.set(name, value);
    }
    return res;
  }
  get header(): string {
    return [...this.values].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  has(name: string) {
    return this.values.has(name);
  }
}

/**
 * A new individual member, signed in (gt and gsi cookies in the jar), with one registered licence valid for a
 * year (or `licenseDays`). Answers the jar, the member's id and e-mail and the licence id.
 */
export async function newShopper(db: DB, options: { licenseDays?: number | null; userType?: number } = {}) {
  const email = `buyer-${randomBytes(5).toString("hex")}@example.com`;
  const joined = await joinMarket(db, { email, password: "long-enough-pw", nickname: "Buyer", marketEmailAgree: false, language: "en" });
  if (!joined.ok) throw new Error("join failed");
  if (options.userType) await db.updateTable("users").set({ user_type: options.userType }).where("id", "=", joined.user.id).execute();
  const now = new Date();
  const hw = `HW-${randomBytes(4).toString("hex")}`;
  const days = options.licenseDays === undefined ? 365 : options.licenseDays;
  const license = await db
    .insertInto("licenses")
    .values({
      serial: `VEDT-TST-${randomBytes(4).toString("hex").toUpperCase()}`,
      alias: "Test PC",
      email,
      owner_kind: "individual",
      user_id: joined.user.id,
      hw_info: hw,
      pc_name: "TEST-PC",
      status: "registered",
      license_type: days === null ? "permanent" : "one_year",
      valid_until: days === null ? null : new Date(now.getTime() + days * 86_400_000).toISOString(),
      product_version: "2.0.5.1.0",
      sort_order: 0,
      registered_at: now.toISOString(),
      created_at: now.toISOString(),
    })
    .returning(["id", "serial"])
    .executeTakeFirstOrThrow();
  const jar = new Jar();
  const gt = (await cookies.gt.serialize(joined.sessionId)).split(";")[0].split("=").slice(1).join("=");
  const gsi = (await cookies.gsi.serialize(String(options.userType ?? 1))).split(";")[0].split("=").slice(1).join("=");
  jar.take(
    new Response(null, {
      headers: [
        ["set-cookie", `gt=${gt}`],
        ["set-cookie", `gsi=${gsi}`],
      ],
    }),
  );
  return { jar, token: gt, userId: joined.user.id, email, licenseId: license.id, serial: license.serial, hwInfo: hw };
}
