import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { findOperator, OPERATOR_IDLE_MS, operatorSignIn } from "../../app/market/operators/accounts.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, OPERATOR_EMAIL, signInOperator } from "../support/operator";

type Call = Awaited<ReturnType<typeof createTestApp>>;

describe(`operator console: sign-in, roles, operators and the audit log on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
  });
  afterAll(async () => drop());

  const get = (path: string, cookie?: string) => call(path, { headers: cookie ? { cookie } : {}, ip: "198.51.100.77" });

  it("sends a visitor to the sign-in page with the page to come back to, and never caches the console", async () => {
    const res = await get("/admin/audit?page=2");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/admin/login?next=${encodeURIComponent("/admin/audit?page=2")}`);
    const login = await get("/admin/login");
    expect(login.status).toBe(200);
    expect(login.headers.get("cache-control")).toContain("no-store");
    expect(await login.text()).toContain("Sign in to the operator console");
  });

  it("refuses a wrong password and an unknown e-mail alike, keeps the e-mail typed, and slows a guesser", async () => {
    const ip = "198.51.100.10";
    const post = (email: string, password: string) =>
      call("/admin/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "en", cookie: "lng=en" },
        body: new URLSearchParams({ email, password }),
        ip,
      });
    const wrong = await post(OPERATOR_EMAIL.admin, "not-the-password1!");
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain("The e-mail or password is wrong.");
    expect(html).toContain(`value="${OPERATOR_EMAIL.admin}"`);
    expect((await post("nobody@example.com", "whatever-1!")).status).toBe(401);
    // The (operator, address) back-off: 3 free attempts, then a wait even for the right password.
    await post(OPERATOR_EMAIL.admin, "wrong-again-1!");
    await post(OPERATOR_EMAIL.admin, "wrong-again-2!");
    const paced = await post(OPERATOR_EMAIL.admin, "market1234!");
    expect(paced.status).toBe(429);
    expect(Number(paced.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await paced.text()).toContain("Too many attempts.");
  });

  it("shows each role only its sections and answers 403 for the others", async () => {
    const support = await signInOperator(call, "support", "198.51.100.21");
    const home = await get("/admin", support);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('href="/admin/inquiries"');
    expect(html).not.toContain('href="/admin/operators"');
    const denied = await get("/admin/operators", support);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("Your role does not open this section.");
    expect((await get("/admin/audit", support)).status).toBe(403);
    const admin = await signInOperator(call, "admin", "198.51.100.22");
    expect((await get("/admin/operators", admin)).status).toBe(200);
    expect((await get("/admin/audit", admin)).status).toBe(200);
  });

  it("lets an administrator add an operator with a strong password only, change its role and stop it, all in the audit log", async () => {
    const admin = await signInOperator(call, "admin", "198.51.100.23");
    const weak = await adminPost(call, admin, "/admin/operators", {
      intent: "create",
      email: "new.op@example.com",
      name: "New",
      password: "short1!",
      role: "support",
    });
    expect(weak.status).toBe(400);
    const weakHtml = await weak.text();
    expect(weakHtml).toContain("The password must be 10 to 128 characters long.");
    expect(weakHtml).toContain('value="new.op@example.com"');
    const noSymbol = await adminPost(call, admin, "/admin/operators", {
      intent: "create",
      email: "new.op@example.com",
      name: "New",
      password: "longenough123",
      role: "support",
    });
    expect(noSymbol.status).toBe(400);
    const made = await adminPost(call, admin, "/admin/operators", {
      intent: "create",
      email: "New.Op@example.com",
      name: "New",
      password: "Str0ng-enough!",
      role: "support",
    });
    expect(made.status).toBe(200);
    const row = await db.selectFrom("operators").selectAll().where("email", "=", "new.op@example.com").executeTakeFirstOrThrow();
    expect(row.role).toBe("support");
    expect(row.password_hash).not.toContain("Str0ng");
    const again = await adminPost(call, admin, "/admin/operators", {
      intent: "create",
      email: "new.op@example.com",
      name: "New",
      password: "Str0ng-enough!",
      role: "support",
    });
    expect(again.status).toBe(409);

    const session = await operatorSignIn(db, { email: "new.op@example.com", password: "Str0ng-enough!", ip: "198.51.100.24" });
    expect(session.ok).toBe(true);
    const token = session.ok ? session.token : "";
    expect(await findOperator(db, token)).toMatchObject({ role: "support" });
    expect(
      (await adminPost(call, admin, "/admin/operators", { intent: "update", id: String(row.id), role: "finance", active: "1" })).status,
    ).toBe(200);
    expect(await findOperator(db, token)).toMatchObject({ role: "finance" });
    expect((await adminPost(call, admin, "/admin/operators", { intent: "update", id: String(row.id), role: "finance" })).status).toBe(200);
    expect(await findOperator(db, token)).toBeNull();

    const log = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("target_type", "=", "operator")
      .where("target_id", "=", String(row.id))
      .orderBy("id")
      .execute();
    expect(log.map((l) => l.action)).toEqual(["operator.create", "operator.sign_in", "operator.update", "operator.update"]);
    expect(log[0].operator_email).toBe(OPERATOR_EMAIL.admin);
    expect(JSON.parse(log[3].before_json ?? "{}")).toEqual({ role: "finance", active: true });
    expect(JSON.parse(log[3].after_json ?? "{}")).toEqual({ role: "finance", active: false });
    const page = await get(`/admin/audit?action=operator.update&targetId=${row.id}`, admin);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("2 actions");
    expect(pageHtml).toContain("operator.update");
  });

  it("does not let an administrator change their own role", async () => {
    const admin = await signInOperator(call, "admin", "198.51.100.25");
    const me = await db.selectFrom("operators").select("id").where("email", "=", OPERATOR_EMAIL.admin).executeTakeFirstOrThrow();
    const res = await adminPost(call, admin, "/admin/operators", { intent: "update", id: String(me.id), role: "support", active: "1" });
    expect(res.status).toBe(403);
    expect((await db.selectFrom("operators").select("role").where("id", "=", me.id).executeTakeFirstOrThrow()).role).toBe("admin");
  });

  it("ends a session after 30 idle minutes, and on sign-out", async () => {
    const t0 = new Date("2026-11-26T10:00:00Z");
    const s = await operatorSignIn(db, { email: OPERATOR_EMAIL.catalog, password: "market1234!", ip: "198.51.100.26" }, t0);
    const token = s.ok ? s.token : "";
    expect(await findOperator(db, token, new Date(t0.getTime() + OPERATOR_IDLE_MS - 1000))).not.toBeNull();
    // Seen at 29:59, so still alive 29 minutes later; then idle past the limit.
    const seen = new Date(t0.getTime() + OPERATOR_IDLE_MS - 1000);
    expect(await findOperator(db, token, new Date(seen.getTime() + OPERATOR_IDLE_MS - 1000))).not.toBeNull();
    expect(await findOperator(db, token, new Date(seen.getTime() + 2 * OPERATOR_IDLE_MS))).toBeNull();

    const cookie = await signInOperator(call, "catalog", "198.51.100.27");
    expect((await get("/admin", cookie)).status).toBe(200);
    const out = await adminPost(call, cookie, "/admin/logout", {});
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/admin/login");
    expect((await get("/admin", cookie)).status).toBe(302);
  });

  it("goes back only to console addresses after sign-in", async () => {
    for (const [next, to] of [
      ["/admin/audit?page=2", "/admin/audit?page=2"],
      ["https://evil.example/admin", "/admin"],
      ["//evil.example", "/admin"],
      ["/adminx/..", "/admin"],
    ] as const) {
      const res = await call("/admin/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: OPERATOR_EMAIL.finance, password: "market1234!", next }),
        ip: "198.51.100.28",
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(to);
    }
  });
});
