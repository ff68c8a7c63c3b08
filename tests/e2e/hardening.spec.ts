import http from "node:http";
import { expect, test } from "@playwright/test";

/**
 * The server's own defences, tested over real HTTP against the running store (headers a browser would never
 * let a page choose, such as Host, go through node:http).
 */
const MEMBER = { email: "member@example.com", password: "market1234!", nickname: "데모회원" };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: init.method ?? "GET", headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

/** Signs the demo member in through the form; answers the Cookie header and the gt value (the API's token). */
async function signIn(base: string) {
  const res = await raw(base, "/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ email: MEMBER.email, password: MEMBER.password }).toString(),
  });
  expect(res.status).toBe(302);
  const pairs = (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).filter((c) => !c.endsWith("="));
  return { cookie: pairs.join("; "), token: (pairs.find((c) => c.startsWith("gt=")) ?? "").slice(3) };
}

test.describe("page cache", () => {
  test("a request carrying a credential is never cached nor served from the cache", async ({ baseURL }) => {
    const base = baseURL as string;
    const { token } = await signIn(base);
    const credentials: Record<string, string>[] = [
      { authorizationToken: token },
      { ngt: "x".repeat(20) },
      { license_id: "VEDT-IND-0001-DEMO", hw_info: "HW-DEMO-IND-0001" },
    ];
    for (const headers of credentials) {
      const personal = await raw(base, "/", { headers: { "accept-language": "ko", ...headers } });
      expect(personal.status).toBe(200);
      expect(personal.headers["x-cache"], JSON.stringify(Object.keys(headers))).toBeUndefined();
    }
    // Anonymous visitors share a cached home page that carries no member's data.
    // (Each worker process keeps its own cache: ask until a worker that rendered it answers.)
    let anonymous = await raw(base, "/", { headers: { "accept-language": "ko" } });
    for (let i = 0; i < 8 && anonymous.headers["x-cache"] !== "HIT"; i++)
      anonymous = await raw(base, "/", { headers: { "accept-language": "ko" } });
    expect(anonymous.headers["x-cache"]).toBe("HIT");
    expect(anonymous.body).not.toContain(MEMBER.nickname);
    expect(anonymous.body).not.toContain(MEMBER.email);
  });

  test("the Host header never reaches a page or the cache", async ({ baseURL }) => {
    const base = baseURL as string;
    const forged = await raw(base, "/icon", { headers: { host: "evil.example", "accept-language": "en" } });
    expect(forged.status).toBe(200);
    expect(forged.body).not.toContain("evil.example");
    const clean = await raw(base, "/icon", { headers: { "accept-language": "en" } });
    expect(clean.body).not.toContain("evil.example");
    expect(clean.body).toContain(`<link rel="canonical" href="${base}/icon"/>`);
  });
});

test.describe("requests the server refuses", () => {
  test("methods it does not serve, malformed hosts and non-form page bodies are client errors", async ({ baseURL }) => {
    const base = baseURL as string;
    expect((await raw(base, "/", { method: "TRACE" })).status).toBe(405);
    expect((await raw(base, "/", { method: "PROPFIND" })).status).toBe(405);
    for (const host of ["a b", "[::1", "evil.example:99999", "%%"])
      expect((await raw(base, "/", { headers: { host } })).status).toBeLessThan(500);
    const page = (headers: Record<string, string>, body?: string) =>
      raw(base, "/cart", { method: "POST", headers: { origin: base, ...headers }, body });
    expect((await page({ "content-type": "application/json" }, "{}")).status).toBe(415);
    expect((await page({})).status).toBe(415);
    expect((await page({ "content-type": "text/plain" }, "intent=add")).status).toBe(415);
    expect((await page({ "content-type": "multipart/form-data; boundary=x" }, "garbage")).status).toBe(400);
    // The legacy ?_data protocol (the app uses single fetch) is refused, not a 500.
    for (const method of ["GET", "POST"])
      expect(
        (
          await raw(base, "/login?index&_data=routes%2F_store.login", {
            method,
            headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
            body: method === "POST" ? "email=a" : undefined,
          })
        ).status,
      ).toBe(400);
    const notice = await raw(base, "/notice?page=99999999999999999999");
    expect(notice.status).toBeLessThan(500);
  });

  test("cross-origin writes with only cookies are refused: sign-out and the member's data stay as they were", async ({ baseURL }) => {
    const base = baseURL as string;
    const { cookie } = await signIn(base);
    const evil = { origin: "https://evil.example", cookie };
    const logout = await raw(base, "/logout", { method: "POST", headers: { ...evil, "content-type": "text/plain" }, body: "x" });
    expect(logout.status).toBe(403);
    const users = await raw(base, "/api/v1/users", {
      method: "PUT",
      headers: { ...evil, "content-type": "text/plain" },
      body: JSON.stringify({ nickname: "defaced" }),
    });
    expect(users.status).toBe(403);
    expect(JSON.parse(users.body).result.code).toBe(403);
    // Still signed in, with the same nickname.
    const me = await raw(base, "/api/v1/users", { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toContain(MEMBER.nickname);
    expect(me.body).not.toContain("defaced");
  });
});
