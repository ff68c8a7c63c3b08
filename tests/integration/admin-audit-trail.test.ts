/**
 * The audit trail (issue 25 point 7): what the console records besides changes (sign-out, failed sign-ins, refused
 * attempts, report exports, views of a member's data and of an inquiry's attachment), that the store's own database
 * connection can neither change nor delete a line, and that the hash chain shows in the console when a line was
 * changed or removed anyway (by the tables' owner, past the triggers).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_GENESIS, auditRowHash } from "../../app/db/audit-chain";
import { createDb, type DB } from "../../app/db/db.server";
import { isPostgres } from "../../app/db/dialect";
import * as m0029 from "../../app/db/migrations/0029_audit_chain";
import { createLocalStorage } from "../../app/integrations/storage/local.server";
import { checkAuditTrail, recordAudit } from "../../app/market/operators/audit.server";
import { fileInquiry } from "../../app/market/support.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { adminPost, OPERATOR_EMAIL, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Call = Awaited<ReturnType<typeof createTestApp>>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);

describe(`the audit trail: complete, append-only and chained on ${ENGINE}`, () => {
  let db: DB;
  let url: string;
  let drop: () => Promise<void>;
  let dataDir: string;
  let call: Call;

  beforeAll(async () => {
    const t = await createTestDb();
    ({ db, url, drop, dataDir } = t);
    call = await createTestApp(db, { dataDir });
  }, 60_000);
  afterAll(async () => drop());

  const lines = (action: string) => db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("seq").execute();
  const count = async () =>
    Number(
      (
        await db
          .selectFrom("audit_log")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const operatorId = async (role: keyof typeof OPERATOR_EMAIL) =>
    (await db.selectFrom("operators").select("id").where("email", "=", OPERATOR_EMAIL[role]).executeTakeFirstOrThrow()).id;
  const signInPost = (email: string, password: string, ip: string) =>
    call("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password }),
      ip,
    });

  it("records an operator's sign-out with their address, and nothing for a sign-out without a session", async () => {
    const cookie = await signInOperator(call, "support", "198.51.100.30");
    const out = await call("/admin/logout", { method: "POST", headers: { cookie }, ip: "198.51.100.31" });
    expect(out.status).toBe(302);
    const [line, ...more] = await lines("operator.sign_out");
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      operator_id: await operatorId("support"),
      operator_email: OPERATOR_EMAIL.support,
      target_type: "operator",
      target_id: String(await operatorId("support")),
      ip: "198.51.100.31",
    });
    // The session is gone: signing out again (or without a cookie) is no line.
    await call("/admin/logout", { method: "POST", headers: { cookie }, ip: "198.51.100.31" });
    await call("/admin/logout", { method: "POST", ip: "198.51.100.31" });
    expect(await lines("operator.sign_out")).toHaveLength(1);
  });

  it("records failed sign-ins (a wrong password, an unknown e-mail), but not the attempts the back-off refuses", async () => {
    const ip = "198.51.100.32";
    expect((await signInPost(OPERATOR_EMAIL.finance, "not-the-password-1!", ip)).status).toBe(401);
    expect((await signInPost("  Nobody@Example.com ", "whatever-it-is-1!", ip)).status).toBe(401);
    const [wrong, unknown] = await lines("operator.sign_in_failed");
    expect(wrong).toMatchObject({ operator_id: await operatorId("finance"), operator_email: OPERATOR_EMAIL.finance, ip });
    expect(JSON.parse(wrong.after_json ?? "{}")).toEqual({ reason: "wrong_password" });
    expect(unknown).toMatchObject({ operator_id: null, operator_email: "nobody@example.com", target_id: null, ip });
    expect(JSON.parse(unknown.after_json ?? "{}")).toEqual({ reason: "unknown_email" });
    // Two more failures, then the (operator, address) back-off answers 429 before the password is checked.
    await signInPost(OPERATOR_EMAIL.finance, "wrong-again-1!", ip);
    await signInPost(OPERATOR_EMAIL.finance, "wrong-again-2!", ip);
    expect(await lines("operator.sign_in_failed")).toHaveLength(4);
    expect((await signInPost(OPERATOR_EMAIL.finance, "wrong-again-3!", ip)).status).toBe(429);
    expect(await lines("operator.sign_in_failed")).toHaveLength(4);
  });

  it("records each refused (403) attempt once: a page, its data request and a form post", async () => {
    const catalog = await signInOperator(call, "catalog", "198.51.100.33");
    const before = await count();
    const page = await call("/admin/members/1", { headers: { cookie: catalog }, ip: "198.51.100.33" });
    expect(page.status).toBe(403);
    expect(await count()).toBe(before + 1);
    const post = await adminPost(call, catalog, "/admin/modes", { home: "service-stop" }, "198.51.100.33");
    expect(post.status).toBe(403);
    expect(await count()).toBe(before + 2);
    const dataRequest = await call("/admin/audit.data", { headers: { cookie: catalog }, ip: "198.51.100.33" });
    expect(dataRequest.status).toBe(403);
    const refused = await lines("access.refused");
    expect(refused.map((l) => [l.target_id, JSON.parse(l.after_json ?? "{}")])).toEqual([
      ["members", { method: "GET", path: "/admin/members/1", role: "catalog" }],
      ["modes", { method: "POST", path: "/admin/modes", role: "catalog" }],
      ["audit", { method: "GET", path: "/admin/audit", role: "catalog" }],
    ]);
    expect(refused.every((l) => l.operator_email === OPERATOR_EMAIL.catalog && l.ip === "198.51.100.33")).toBe(true);
    // Nothing else was written, and the refused post changed nothing.
    expect(await count()).toBe(before + 3);
    expect(await db.selectFrom("settings").select("value").where("key", "=", "home_mode").executeTakeFirst()).toBeUndefined();
  });

  it("records report exports (what, which days), not a refused query", async () => {
    const finance = await signInOperator(call, "finance", "198.51.100.34");
    const csv = await call("/admin/reports/export?kind=refunds-days&from=2026-11-01&to=2026-11-07&currency=USD", {
      headers: { cookie: finance },
      ip: "198.51.100.34",
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const [line, ...more] = await lines("report.export");
    expect(more).toEqual([]);
    expect(line).toMatchObject({ operator_email: OPERATOR_EMAIL.finance, target_type: "report", target_id: "refunds-days" });
    expect(JSON.parse(line.after_json ?? "{}")).toMatchObject({ from: "2026-11-01", to: "2026-11-07", currency: "USD" });
    const bad = await call("/admin/reports/export?kind=sales-days&from=2026-11-09&to=2026-11-01", { headers: { cookie: finance } });
    expect(bad.status).toBe(400);
    expect(await lines("report.export")).toHaveLength(1);
  });

  it("records views of a member's personal data and of an inquiry's attachment, not a miss or a HEAD", async () => {
    const support = await signInOperator(call, "support", "198.51.100.35");
    const member = await newShopper(db);
    const inquiry = await fileInquiry(db, createLocalStorage(dataDir), member.userId, {
      category: "download",
      title: "Screenshot attached",
      description: "See the picture.",
      email: member.email,
      attachment: PNG,
      language: "en",
    });
    const get = (path: string, method = "GET") => call(path, { method, headers: { cookie: support }, ip: "198.51.100.35" });

    expect((await get(`/admin/members/${member.userId}`)).status).toBe(200);
    expect((await get("/admin/members/999999999")).status).toBe(404);
    const views = await lines("member.view");
    expect(views.map((v) => [v.target_type, v.target_id, v.operator_email])).toEqual([
      ["member", String(member.userId), OPERATOR_EMAIL.support],
    ]);

    const file = await get(`/admin/inquiries/${inquiry}/attachment`);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    expect((await get(`/admin/inquiries/${inquiry}/attachment`, "HEAD")).status).toBe(200);
    expect((await get("/admin/inquiries/999999999/attachment")).status).toBe(404);
    const seen = await lines("inquiry.attachment_view");
    expect(seen.map((v) => [v.target_type, v.target_id, v.ip])).toEqual([["inquiry", String(inquiry), "198.51.100.35"]]);
  });

  it("keeps one chain when two connections (two server processes) write at once", async () => {
    const other = createDb(url, { poolSize: 4 });
    try {
      const actor = { id: await operatorId("admin"), email: OPERATOR_EMAIL.admin, ip: "198.51.100.36" };
      const before = await count();
      await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          recordAudit(i % 2 ? db : other, actor, { action: "test.concurrent", targetType: "test", targetId: i, after: { i } }),
        ),
      );
      expect(await count()).toBe(before + 24);
      const seqs = (await db.selectFrom("audit_log").select("seq").orderBy("seq").execute()).map((r) => Number(r.seq));
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(await checkAuditTrail(db)).toMatchObject({ ok: true, rows: before + 24 });
    } finally {
      await other.destroy();
    }
  });

  it("refuses UPDATE and DELETE of the audit log through the store's own connection", async () => {
    const first = await db.selectFrom("audit_log").selectAll().orderBy("seq").limit(1).executeTakeFirstOrThrow();
    const total = await count();
    await expect(db.updateTable("audit_log").set({ reason: "edited" }).where("id", "=", first.id).execute()).rejects.toThrow(/append-only/);
    await expect(db.updateTable("audit_log").set({ operator_email: "someone@example.com" }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("audit_log").where("id", "=", first.id).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
    await expect(sql`UPDATE audit_log SET action = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/append-only/);
    if (isPostgres(db)) await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    // Nor inside a transaction of the store's, and nothing of it stays.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom("audit_log").where("id", "=", first.id).execute();
      }),
    ).rejects.toThrow(/append-only/);
    // A line without its place in the chain is refused too.
    await expect(
      sql`INSERT INTO audit_log (operator_email, action, target_type, created_at) VALUES ('x@example.com', 'forged', 'test', '2026-01-01T00:00:00.000Z')`.execute(
        db,
      ),
    ).rejects.toThrow();
    expect(await count()).toBe(total);
    expect(await db.selectFrom("audit_log").selectAll().where("id", "=", first.id).executeTakeFirstOrThrow()).toEqual(first);
  });

  it("says in the console that the trail is intact, and which row was changed or where rows went missing", async () => {
    const admin = await signInOperator(call, "admin", "198.51.100.37");
    const trail = async (lang: "en" | "ko") => {
      const res = await call("/admin/audit", {
        headers: { cookie: `${admin}; lng=${lang}`, "accept-language": lang },
        ip: "198.51.100.37",
      });
      expect(res.status).toBe(200);
      const html = (await res.text()).replaceAll("<!-- -->", "");
      return html.match(/data-testid="audit-trail">([^<]*)</)?.[1] ?? "";
    };
    expect(await checkAuditTrail(db)).toMatchObject({ ok: true });
    expect(await trail("en")).toMatch(/^The trail is intact: \d+ rows/);
    expect(await trail("ko")).toMatch(/^감사 기록이 온전합니다: \d+개 행/);

    // The tables' owner can step past the triggers (SQLite: drop them; PostgreSQL: disable them); the chain shows it.
    if (isPostgres(db)) await sql`ALTER TABLE audit_log DISABLE TRIGGER USER`.execute(db);
    else for (const name of ["audit_log_no_update", "audit_log_no_delete"]) await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    const row3 = await db.selectFrom("audit_log").selectAll().where("seq", "=", 3).executeTakeFirstOrThrow();
    await db.updateTable("audit_log").set({ ip: "192.0.2.1" }).where("seq", "=", 3).execute();
    expect(await checkAuditTrail(db)).toEqual({ ok: false, problem: "changed", seq: 3 });
    expect(await trail("en")).toBe("Row 3 was changed after it was written: the trail no longer matches its hash chain from there.");
    expect(await trail("ko")).toBe("3번 행이 기록된 뒤 변경되었습니다: 그 행부터 해시 체인이 맞지 않습니다.");

    // Changed with its hash made to fit: the next row's link gives it away.
    const refit = auditRowHash(row3.prev_hash, { ...row3, ip: "192.0.2.1" });
    await db.updateTable("audit_log").set({ hash: refit }).where("seq", "=", 3).execute();
    expect(await checkAuditTrail(db)).toEqual({ ok: false, problem: "changed", seq: 3 });

    // Put back as it was: intact again. Then a row removed from the middle.
    await db.updateTable("audit_log").set({ ip: row3.ip, hash: row3.hash }).where("seq", "=", 3).execute();
    expect(await checkAuditTrail(db)).toMatchObject({ ok: true });
    await db.deleteFrom("audit_log").where("seq", "=", 5).execute();
    expect(await checkAuditTrail(db)).toEqual({ ok: false, problem: "missing", seq: 6 });
    expect(await trail("en")).toBe("Rows before row 6 are missing: the trail was cut.");
    expect(await trail("ko")).toBe("6번 행 앞의 행이 없어졌습니다: 기록이 잘렸습니다.");
  });
});

describe(`migration 0029 chains the audit lines written before it on ${ENGINE}`, () => {
  it("chains existing rows in id order and makes the table append-only", async () => {
    const t = await createTestDb();
    const { db } = t;
    try {
      await m0029.down(db);
      const at = "2026-11-01T00:00:00.000Z";
      for (const action of ["operator.create", "content.update", "order.refund"])
        await sql`INSERT INTO audit_log (operator_id, operator_email, action, target_type, target_id, created_at) VALUES (NULL, 'old@example.com', ${action}, 'test', '1', ${at})`.execute(
          db,
        );
      await m0029.up(db);
      const rows = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
      expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
      expect(rows[0].prev_hash).toBe(AUDIT_GENESIS);
      expect(rows.slice(1).map((r) => r.prev_hash)).toEqual(rows.slice(0, -1).map((r) => r.hash));
      expect(await checkAuditTrail(db)).toEqual({ ok: true, rows: rows.length, lastHash: rows.at(-1)?.hash });
      await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
      // New lines follow on.
      await recordAudit(db, { id: null, email: "old@example.com" }, { action: "test.after", targetType: "test" });
      expect(await checkAuditTrail(db)).toMatchObject({ ok: true, rows: rows.length + 1 });
      // A row slipped in past the schema's guards (by the tables' owner) has no place in the chain: the check says so.
      if (isPostgres(db))
        for (const c of ["seq", "prev_hash", "hash"]) await sql`ALTER TABLE audit_log ALTER COLUMN ${sql.ref(c)} DROP NOT NULL`.execute(db);
      else await sql`DROP TRIGGER audit_log_chained`.execute(db);
      await sql`INSERT INTO audit_log (operator_email, action, target_type, created_at) VALUES ('x@example.com', 'forged', 'test', ${at})`.execute(
        db,
      );
      expect(await checkAuditTrail(db)).toEqual({ ok: false, problem: "unchained", count: 1 });
    } finally {
      await t.drop();
    }
  });
});
