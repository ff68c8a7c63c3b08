import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { ADMIN_AREAS, type AdminArea, roleAllows } from "../../app/market/operators/roles";
import { ADMIN_FORM_SAMPLES, ADMIN_PARAMS } from "../e2e/admin-samples";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { OPERATOR_EMAIL, type OperatorRoleName, signInOperator } from "../support/operator";
import { fill, type PageRoute, pageRoutes } from "../support/routes";
import { signIn } from "../support/session";

type Call = Awaited<ReturnType<typeof createTestApp>>;
type Who = "visitor" | "member" | "business" | OperatorRoleName;
const ROLES: OperatorRoleName[] = ["support", "catalog", "finance", "admin"];

/**
 * The console's authorization matrix: every /admin route of the build's route table, read and written by a visitor,
 * a member, a business representative and an operator of each role. Only the roles that reach the route's area get
 * in; the others are sent to sign in (not operators) or refused 403 (operators), and their writes change nothing.
 * A route's area is read from its id: admin-<area> or admin-<area>-<page> (remix.config.js).
 */
function areaOf(r: PageRoute): AdminArea | "any" | null {
  if (r.id === "admin-index") return "any";
  const rest = r.id.slice("admin-".length);
  return (ADMIN_AREAS as readonly string[]).find((a) => rest === a || rest.startsWith(`${a}-`)) as AdminArea | null;
}

describe(`operator console authorization matrix on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Call;
  let routes: PageRoute[];
  const cookies = {} as Record<Who, string>;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    routes = (await pageRoutes()).filter((r) => r.id.startsWith("admin") && r.id !== "admin-login" && r.id !== "admin-logout");
    cookies.visitor = "";
    cookies.member = (await signIn(call, DEMO.member.email, "198.51.100.201")).cookie;
    cookies.business = (await signIn(call, DEMO.business.email, "198.51.100.202")).cookie;
    for (const [i, role] of ROLES.entries()) cookies[role] = await signInOperator(call, role, `198.51.100.${210 + i}`);
  }, 60_000);
  afterAll(async () => drop());

  const allowed = (who: Who, area: AdminArea | "any") =>
    (ROLES as string[]).includes(who) && (area === "any" || roleAllows(who as OperatorRoleName, area));
  const address = (r: PageRoute) => fill(r.pattern, ADMIN_PARAMS[r.id] ?? {});

  it("knows every console route: its area from its id, a value for each segment, a sample for each action", () => {
    expect(routes.length).toBeGreaterThanOrEqual(3);
    expect(routes.filter((r) => !areaOf(r)).map((r) => r.id)).toEqual([]);
    expect(routes.filter((r) => r.params.some((p) => !ADMIN_PARAMS[r.id]?.[p])).map((r) => r.id)).toEqual([]);
    expect(routes.filter((r) => r.action && !ADMIN_FORM_SAMPLES[r.id]).map((r) => r.id)).toEqual([]);
    // Each area's navigation link leads to a route.
    for (const a of ADMIN_AREAS)
      expect(
        routes.map((r) => r.pattern),
        `/admin/${a}`,
      ).toContain(`/admin/${a}`);
  });

  /** The audit log's lines from `after` on: every refused attempt of an operator is one `access.refused` line. */
  const linesAfter = (after: number) => db.selectFrom("audit_log").selectAll().where("seq", ">", after).orderBy("seq").execute();
  const lastSeq = async () =>
    Number((await db.selectFrom("audit_log").select("seq").orderBy("seq", "desc").limit(1).executeTakeFirst())?.seq ?? 0);
  const loggedAfter = async (after: number) =>
    (await linesAfter(after)).map((l) => {
      const was = JSON.parse(l.after_json ?? "{}") as { method?: string; path?: string };
      return JSON.stringify({ action: l.action, email: l.operator_email, area: l.target_id, method: was.method, path: was.path });
    });
  const refusalOf = (who: Who, r: PageRoute, method: string) =>
    JSON.stringify({ action: "access.refused", email: OPERATOR_EMAIL[who as OperatorRoleName], area: areaOf(r), method, path: address(r) });

  it("lets only the roles of a route's area read it, and logs each refused operator once", async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const area = areaOf(r) ?? "any";
      for (const who of Object.keys(cookies) as Who[]) {
        const before = await lastSeq();
        const res = await call(address(r), { headers: cookies[who] ? { cookie: cookies[who] } : {}, ip: "198.51.100.220" });
        const location = res.headers.get("location") ?? "";
        const ok = allowed(who, area)
          ? [200, 404].includes(res.status) || (res.status === 302 && location.startsWith("/admin") && !location.startsWith("/admin/login"))
          : (ROLES as string[]).includes(who)
            ? res.status === 403
            : res.status === 302 && location.startsWith("/admin/login");
        if (!ok) wrong.push(`${who} GET ${address(r)} → ${res.status} ${location}`);
        if (!allowed(who, area)) {
          const logged = await loggedAfter(before);
          const expected = (ROLES as string[]).includes(who) ? [refusalOf(who, r, "GET")] : [];
          if (JSON.stringify(logged) !== JSON.stringify(expected))
            wrong.push(`${who} GET ${address(r)} logged ${logged.join(", ") || "nothing"}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses every console write from a principal outside the route's area: the write changes nothing, the refusal is logged", async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.action)) {
      const area = areaOf(r) ?? "any";
      for (const who of Object.keys(cookies) as Who[]) {
        if (allowed(who, area)) continue;
        for (const sample of ADMIN_FORM_SAMPLES[r.id] ?? [{}]) {
          const before = await lastSeq();
          const body = new URLSearchParams();
          for (const [k, v] of Object.entries(sample)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
          const res = await call(address(r), {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", ...(cookies[who] ? { cookie: cookies[who] } : {}) },
            body,
            ip: "198.51.100.221",
          });
          const location = res.headers.get("location") ?? "";
          const refused = (ROLES as string[]).includes(who)
            ? res.status === 403
            : res.status === 302 && location.startsWith("/admin/login");
          if (!refused) wrong.push(`${who} POST ${address(r)} → ${res.status} ${location}`);
          // The only line a refused write leaves is its refusal (an operator's; none for the others).
          const logged = await loggedAfter(before);
          const expected = (ROLES as string[]).includes(who) ? [refusalOf(who, r, "POST")] : [];
          if (JSON.stringify(logged) !== JSON.stringify(expected))
            wrong.push(`${who} POST ${address(r)} logged ${logged.join(", ") || "nothing"}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has an operator per role in the demo seed", () => {
    expect(Object.keys(OPERATOR_EMAIL).sort()).toEqual([...ROLES].sort());
  });
});
