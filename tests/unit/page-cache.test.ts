import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyFor, bodyParts, createPageCache, isCacheableRequest } from "../../app/utils/page-cache.server";

const page = (body: string, init: { status?: number; seconds?: number; cookie?: boolean } = {}) => {
  const headers = new Headers({ "content-type": "text/html" });
  if (init.seconds) headers.set("X-Page-Cache", String(init.seconds));
  if (init.cookie) headers.append("Set-Cookie", "gt=x");
  return new Response(body, { status: init.status ?? 200, headers });
};

describe("page micro-cache", () => {
  it("serves anonymous GETs only: no credential header, no cookie but the language, no API or my page", () => {
    const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      isCacheableRequest(method, path, (name) => headers[name]);
    expect(get("/video")).toBe(true);
    expect(get("/video", { cookie: "lng=ko" })).toBe(true);
    for (const path of ["/files/abc", "/pay01", "/pay/return", "/sandbox/pay/x", "/webhooks/payments/sandbox", "/mypage/sw/home"])
      expect(get(path), path).toBe(false);
    expect(get("/package")).toBe(true);
    expect(get("/video", { cookie: "lng=ko; gt=abc" })).toBe(false);
    expect(get("/video", { cookie: "ngt=abc" })).toBe(false);
    // A cookie the store does not know may still be read by a page: never shared.
    expect(get("/video", { cookie: "pay=abc" })).toBe(false);
    expect(get("/video", { cookie: "something=1" })).toBe(false);
    // Credentials in headers (the API's and the editor's) make the page personal too.
    for (const name of ["authorizationtoken", "authorization", "ngt", "license_id", "hw_info"])
      expect(get("/", { [name]: "x" }), name).toBe(false);
    expect(get("/video", {}, "POST")).toBe(false);
    expect(get("/api/v1/passes")).toBe(false);
    expect(get("/mypage/sw/home")).toBe(false);
  });

  it("keeps opted-in 200 pages until they expire, then renders again", async () => {
    const cache = createPageCache();
    let renders = 0;
    const render = async () => page(`<p>${++renders}</p>`, { seconds: 30 });
    const first = await cache.get("en /video", "n1", render, 0);
    expect(first.hit).toBe(false);
    const second = await cache.get("en /video", "n2", render, 29_000);
    expect(second.hit).toBe(true);
    expect(second.page.body.toString()).toBe("<p>1</p>");
    const third = await cache.get("en /video", "n3", render, 31_000);
    expect(third.hit).toBe(false);
    expect(third.page.body.toString()).toBe("<p>2</p>");
    expect(third.page.headers.map(([k]) => k)).not.toContain("x-page-cache");
  });

  it("never stores pages that did not opt in, failed, or set a cookie", async () => {
    const cache = createPageCache();
    for (const response of [page("a"), page("b", { seconds: 30, status: 404 }), page("c", { seconds: 30, cookie: true })]) {
      await cache.get("k", "n", async () => response.clone());
      expect(cache.size).toBe(0);
    }
  });

  it("renders once for concurrent misses of the same page", async () => {
    const cache = createPageCache();
    let renders = 0;
    const render = () => new Promise<Response>((r) => setTimeout(() => r(page(`<p>${++renders}</p>`, { seconds: 30 })), 20));
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.get("ko /", "n", render)));
    expect(renders).toBe(1);
    expect(results.filter((r) => !r.hit)).toHaveLength(1);
  });

  it("gives each visitor their own CSP nonce", async () => {
    const cache = createPageCache();
    const { page: p } = await cache.get("k", "AAA", async () =>
      page('<script nonce="AAA">1</script><script nonce="AAA">2</script>', { seconds: 5 }),
    );
    expect(bodyFor(p, "BBB").toString()).toBe('<script nonce="BBB">1</script><script nonce="BBB">2</script>');
    expect(bodyFor(p, "AAA")).toBe(p.body);
  });

  it("evicts the least recently used pages beyond its size", async () => {
    const cache = createPageCache({ maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await cache.get(key, "n", async () => page(key, { seconds: 30 }));
    expect(cache.size).toBe(2);
    expect((await cache.get("a", "n", async () => page("a2", { seconds: 30 }))).hit).toBe(false);
  });

  it("keeps its pages within its byte budget, counting packed bodies, headers and keys", async () => {
    const body = randomBytes(10_000).toString("base64"); // hardly compressible
    const one = createPageCache();
    await one.get("en /a", "n", async () => page(body, { seconds: 30 }));
    const cost = one.bytes;
    expect(cost).toBeGreaterThan(7_000 + "content-type".length + "text/html".length + 2 * "en /a".length);
    const cache = createPageCache({ maxBytes: cost * 8 + 100 });
    for (let i = 0; i < 20; i++) await cache.get(`en /${String.fromCharCode(97 + i)}`, "n", async () => page(body, { seconds: 30 }));
    expect(cache.size).toBe(8);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    // The most recent pages stayed; the first went.
    expect((await cache.get("en /t", "n", async () => page("again", { seconds: 30 }))).hit).toBe(true);
    expect((await cache.get("en /a", "n", async () => page("again", { seconds: 30 }))).hit).toBe(false);
  });

  it("keeps pages compressed and gives them back byte for byte", async () => {
    const html = `<!DOCTYPE html><html lang="ko"><body>${'<div class="card"><a href="/contents/video?code=VI1">영상 카드</a></div>'.repeat(1500)}</body></html>`;
    const cache = createPageCache();
    await cache.get("ko /video", "n", async () => page(html, { seconds: 30 }));
    expect(cache.bytes).toBeLessThan(Buffer.byteLength(html) / 10);
    const hit = await cache.get("ko /video", "n", async () => page("other", { seconds: 30 }));
    expect(hit.hit).toBe(true);
    expect(hit.page.body.toString()).toBe(html);
  });

  it("serves a page taking more than an eighth of its budget without keeping it", async () => {
    const cache = createPageCache({ maxBytes: 80_000 });
    await cache.get("big", "n", async () => page(randomBytes(20_000).toString("base64"), { seconds: 30 }));
    expect(cache.size).toBe(0);
    await cache.get("small", "n", async () => page(randomBytes(5_000).toString("base64"), { seconds: 30 }));
    expect(cache.size).toBe(1);
  });

  it("drops expired pages at its sweep, before the budget needs the room", async () => {
    const cache = createPageCache({ sweepMs: 1000 });
    await cache.get("a", "n", async () => page("a", { seconds: 5 }), 0);
    await cache.get("b", "n", async () => page("b", { seconds: 300 }), 500);
    const held = cache.bytes;
    expect(cache.size).toBe(2);
    await cache.get("c", "n", async () => page("c", { seconds: 300 }), 6000);
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(held); // a (expired) went, c came: all three are the same size
  });

  it("answers a stored page with the visitor's nonce as views of the stored bytes, not a copy", async () => {
    const cache = createPageCache();
    const html = '<script nonce="AAAAAAAA">1</script><p>é</p><script nonce="AAAAAAAA">2</script>';
    const { page: p } = await cache.get("k", "AAAAAAAA", async () => page(html, { seconds: 5 }));
    const parts = bodyParts(p, "BBBBBBBB");
    expect(Buffer.concat(parts).toString()).toBe(html.replaceAll("AAAAAAAA", "BBBBBBBB"));
    expect(parts.reduce((n, part) => n + part.length, 0)).toBe(p.body.length);
    const stored = parts.filter((part) => part.buffer === p.body.buffer);
    expect(stored.reduce((n, part) => n + part.length, 0)).toBe(p.body.length - 2 * 8);
    // A nonce of another length (never issued by the server) still comes out right.
    expect(bodyFor(p, "CC").toString()).toBe(html.replaceAll("AAAAAAAA", "CC"));
  });
});
