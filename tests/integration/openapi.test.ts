import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../app/api/routes.server";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { newShopper } from "../support/shopper";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};

/** Property names of every schema in the document's answers (`sdk` is a gateway's own object, sent verbatim). */
function propertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) propertyNames(s, out);
  else if (schema && typeof schema === "object") {
    const { properties, ...rest } = schema as { properties?: Record<string, unknown> };
    if (properties)
      for (const [name, s] of Object.entries(properties)) {
        out.add(name);
        if (name !== "sdk") propertyNames(s, out);
      }
    propertyNames(Object.values(rest), out);
  }
  return out;
}

/** Every key of an answer, all the way down. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      if (k !== "sdk") keysOf(v, out);
    }
  return out;
}

describe(`the API reference (/api/v1/openapi.json) on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let doc: Doc;
  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    const res = await call("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(() => drop());

  const api = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await call(`/api/v1/${path}`, {
      method: init.method ?? "GET",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: { "content-type": "application/json", language: "en", ...init.headers },
    });
    return { status: res.status, body: await res.json() };
  };

  it("is an OpenAPI 3.1 document listing exactly the routes the router serves, each with its spec headers", () => {
    expect(doc.openapi).toBe("3.1.0");
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const served = routes.map((r) => `${r.method} /${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(new Set(documented)).toEqual(new Set(served));
    expect(documented).toHaveLength(served.length);
    // Section 7's headers where they apply: language everywhere, the licence pair on the editor's calls...
    const headers = (method: string, path: string) =>
      (doc.paths[path][method].parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
    for (const [path, ops] of Object.entries(doc.paths)) for (const m of Object.keys(ops)) expect(headers(m, path)).toContain("language");
    expect(headers("get", "/users/downloads")).toEqual(expect.arrayContaining(["license_id", "hw_info"]));
    expect(headers("post", "/auth/request_blowfish")).toEqual(expect.arrayContaining(["license_id", "hw_info"]));
    expect(headers("get", "/carts")).toEqual(expect.arrayContaining(["authorizationToken", "ngt"]));
    expect(headers("get", "/users/licenses/view")).toEqual(expect.arrayContaining(["authorizationToken", "license_id"]));
    expect(headers("get", "/users/orders")).toEqual(expect.arrayContaining(["authorizationToken", "license_id", "hw_info"]));
  });

  it("documents no route that the router does not answer", async () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const method of Object.keys(ops)) {
        const concrete = path.replace(/\{\w+\}/g, "1").slice(1);
        const res = await call(`/api/v1/${concrete}`, {
          method: method.toUpperCase(),
          body: method === "get" ? undefined : "{}",
          headers: { "content-type": "application/json" },
        });
        const type = res.headers.get("content-type") ?? "";
        const body = type.includes("json") ? await res.json() : null;
        expect([res.status, body?.data?.error], `${method.toUpperCase()} ${path}`).not.toEqual([404, "ROUTE_NOT_FOUND"]);
        expect(res.status, `${method.toUpperCase()} ${path}`).not.toBe(405);
      }
  });

  it("names every answer field the spec's way, in snake_case, in the document and on the wire", async () => {
    const camel = [...propertyNames(doc)].filter((n) => /[A-Z]/.test(n));
    expect(camel).toEqual([]);
    const s = await newShopper(db);
    const auth = { authorizationToken: s.token };
    const items = (await api("contents?space=video&limit=3")).body.data.list as { code: string }[];
    await api("carts", { method: "POST", headers: auth, body: { contents_list: [{ item_code: items[0].code }] } });
    const editor = { license_id: DEMO.licenses.b2bg.serial, hw_info: DEMO.licenses.b2bg.hw_info };
    const answers = await Promise.all([
      api("contents?space=audio&limit=5"),
      api(`contents/${items[0].code}`),
      api("search/all?keywords=a"),
      api("search/filters?type=audio"),
      api("carts", { headers: auth }),
      api("passes"),
      api("users/downloads", { headers: editor }),
      api("products/identify/hwinfo", { headers: editor }),
      api("contents/downloads/free", { method: "POST", headers: editor, body: { contents_list: [{ item_code: items[0].code }] } }),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    expect([...keysOf(answers.map((a) => a.body))].filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(answers[0].body.data.list[0]).toHaveProperty("price_type");
    expect(answers[0].body.data.list[0]).toHaveProperty("duration_ms");
  });

  it("accepts the old camelCase names of a JSON body for one release", async () => {
    const [a, b] = (await api("contents?space=icon&limit=2")).body.data.list as { code: string }[];
    const snake = await api("carts", { method: "POST", body: { contents_list: [{ item_code: a.code }] } });
    expect(snake.status).toBe(200);
    const ngt = snake.body.data.ngt as string;
    const camel = await api("carts", { method: "POST", headers: { ngt }, body: { contentsList: [{ itemCode: b.code }] } });
    expect(camel.status).toBe(200);
    expect(camel.body.data.cart_count).toBe(2);
    const lines = (await api("carts", { headers: { ngt } })).body.data.list as { item_code: string }[];
    expect(lines.map((l) => l.item_code).sort()).toEqual([a.code, b.code].sort());
  });

  it("catches an answer that disagrees with the document", async () => {
    const conformance = await call.conformance();
    const res = await api("contents?space=video&limit=1");
    expect(conformance.check("GET", "/contents", 200, "application/json", res.body)).toEqual([]);
    // The old camelCase spelling of a card is not the documented one.
    const { price_type, ...card } = res.body.data.list[0];
    const old = { ...res.body, data: { ...res.body.data, list: [{ ...card, priceType: price_type }] } };
    expect(conformance.check("GET", "/contents", 200, "application/json", old).join("\n")).toMatch(/price_type/);
    // A refusal is the error envelope; a 200 shaped like one is not a list.
    expect(
      conformance.check("GET", "/contents", 200, "application/json", { result: { code: 200, message: "SUCCESS" }, data: {} }),
    ).not.toEqual([]);
    expect(
      conformance.check("GET", "/nothing", 404, "application/json", { result: { code: 404, message: "x" }, data: { state: "ERROR" } }),
    ).toEqual([]);
  });
});
