import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { type CachedPage, cacheAudience, createPageCache, jsonScriptRegion, pageBody } from "../../app/utils/page-cache.server";

/** The page's text for these values, as a client gets it (gzip decoded when the page came compressed). */
const text = (page: CachedPage, values: Record<string, string> = { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, gzip = true) => {
  const { parts, encoding } = pageBody(page, values, gzip);
  const bytes = Buffer.concat(parts);
  return (encoding === "gzip" ? zlib.gunzipSync(bytes) : bytes).toString("utf8");
};
const N = { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" };

const page = (body: string, init: { status?: number; seconds?: number; cookie?: boolean } = {}) => {
  const headers = new Headers({ "content-type": "text/html" });
  if (init.seconds) headers.set("X-Page-Cache", String(init.seconds));
  if (init.cookie) headers.append("Set-Cookie", "gt=x");
  return new Response(body, { status: init.status ?? 200, headers });
};

describe("page micro-cache", () => {
  it("serves anonymous GETs only: no credential header, no cookie but the language, no API or my page", () => {
    const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      cacheAudience(method, path, (name) => headers[name]) === "anonymous";
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

  it("shares a shopper's pages (session and cart cookies) only among shoppers, and nobody else's", () => {
    const audience = (path: string, headers: Record<string, string> = {}, method = "GET") =>
      cacheAudience(method, path, (name) => headers[name]);
    expect(audience("/video")).toBe("anonymous");
    expect(audience("/video", { cookie: "lng=en" })).toBe("anonymous");
    expect(audience("/video", { cookie: "gt=a; gsi=b; lng=ko" })).toBe("shopper");
    expect(audience("/video", { cookie: "ngt=a" })).toBe("shopper");
    // Any other cookie may be read by a page: rendered for its visitor alone.
    expect(audience("/video", { cookie: "gt=a; gsi=b; pay=c" })).toBeNull();
    expect(audience("/video", { cookie: "gt=a; gsi=b; something=1" })).toBeNull();
    // Credentials in headers, member pages, payments, files, the API, and anything but GET: never.
    expect(audience("/video", { cookie: "gt=a; gsi=b", authorizationtoken: "a" })).toBeNull();
    for (const path of ["/mypage/home", "/pay01", "/files/x", "/api/v1/passes"])
      expect(audience(path, { cookie: "gt=a; gsi=b" }), path).toBeNull();
    expect(audience("/video", { cookie: "gt=a; gsi=b" }, "POST")).toBeNull();
  });

  it("keeps opted-in 200 pages for their period, then serves them stale once while one render replaces them", async () => {
    const cache = createPageCache();
    let renders = 0;
    const render = async () => page(`<p>${++renders}</p>`, { seconds: 30 });
    const first = await cache.get("en /video", { nonce: "n1n1n1n1n1n1n1n1n1n1n1n1" }, render, 0);
    expect(first.hit).toBe(false);
    const second = await cache.get("en /video", { nonce: "n2n2n2n2n2n2n2n2n2n2n2n2" }, render, 29_000);
    expect(second.hit).toBe(true);
    expect(second.stale).toBeUndefined();
    expect(text(second.page)).toBe("<p>1</p>");
    // Past its period: the old page at once, and one render behind it (not one per request).
    const [third, fourth] = await Promise.all([
      cache.get("en /video", { nonce: "n3n3n3n3n3n3n3n3n3n3n3n3" }, render, 31_000),
      cache.get("en /video", { nonce: "n4n4n4n4n4n4n4n4n4n4n4n4" }, render, 31_000),
    ]);
    expect([third.stale, fourth.stale]).toEqual([true, true]);
    expect([text(third.page), text(fourth.page)]).toEqual(["<p>1</p>", "<p>1</p>"]);
    await new Promise((r) => setTimeout(r, 10));
    expect(renders).toBe(2);
    const fifth = await cache.get("en /video", { nonce: "n5n5n5n5n5n5n5n5n5n5n5n5" }, render, 31_500);
    expect(fifth.hit).toBe(true);
    expect(fifth.stale).toBeUndefined();
    expect(text(fifth.page)).toBe("<p>2</p>");
    expect(fifth.page.headers.map(([k]) => k)).not.toContain("x-page-cache");
    // Past the one more period (nobody asked meanwhile): rendered again before answering.
    const sixth = await cache.get("en /video", { nonce: "n6n6n6n6n6n6n6n6n6n6n6n6" }, render, 92_000);
    expect(sixth.hit).toBe(false);
    expect(text(sixth.page)).toBe("<p>3</p>");
  });

  it("drops a stale page whose new render may not be kept", async () => {
    const cache = createPageCache();
    await cache.get("k", N, async () => page("<p>kept</p>", { seconds: 10 }), 0);
    const stale = await cache.get("k", N, async () => page("<p>now personal</p>"), 11_000);
    expect(stale.stale).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(cache.size).toBe(0);
  });

  it("never stores pages that did not opt in, failed, or set a cookie", async () => {
    const cache = createPageCache();
    for (const response of [page("a"), page("b", { seconds: 30, status: 404 }), page("c", { seconds: 30, cookie: true })]) {
      await cache.get("k", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => response.clone());
      expect(cache.size).toBe(0);
    }
  });

  it("renders once for concurrent misses of the same page", async () => {
    const cache = createPageCache();
    let renders = 0;
    const render = () => new Promise<Response>((r) => setTimeout(() => r(page(`<p>${++renders}</p>`, { seconds: 30 })), 20));
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.get("ko /", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, render)));
    expect(renders).toBe(1);
    expect(results.filter((r) => !r.hit)).toHaveLength(1);
  });

  it("gives each visitor their own CSP nonce, on the render's answer and from the cache", async () => {
    const cache = createPageCache();
    const html = `<script nonce="${"A".repeat(24)}">1</script><script nonce="${"A".repeat(24)}">2</script>`;
    const { page: rendered } = await cache.get("k", { nonce: "AAAAAAAAAAAAAAAAAAAAAAAA" }, async () => page(html, { seconds: 5 }));
    expect(rendered.kind).toBe("rendered");
    expect(text(rendered, { nonce: "BBBBBBBBBBBBBBBBBBBBBBBB" })).toBe(
      '<script nonce="BBBBBBBBBBBBBBBBBBBBBBBB">1</script><script nonce="BBBBBBBBBBBBBBBBBBBBBBBB">2</script>',
    );
    const { page: stored, hit } = await cache.get("k", { nonce: "CCCCCCCCCCCCCCCCCCCCCCCC" }, async () => page("other", { seconds: 5 }));
    expect(hit).toBe(true);
    expect(stored.kind).toBe("stored");
    expect(text(stored, { nonce: "DDDDDDDDDDDDDDDDDDDDDDDD" })).toBe(
      '<script nonce="DDDDDDDDDDDDDDDDDDDDDDDD">1</script><script nonce="DDDDDDDDDDDDDDDDDDDDDDDD">2</script>',
    );
    expect(text(stored, { nonce: "EEEEEEEEEEEEEEEEEEEEEEEE" }, false)).toBe(
      '<script nonce="EEEEEEEEEEEEEEEEEEEEEEEE">1</script><script nonce="EEEEEEEEEEEEEEEEEEEEEEEE">2</script>',
    );
  });

  it("fills every hole the render's values left: a member's nickname as well as the nonce", async () => {
    const cache = createPageCache();
    const render = async () =>
      page('<p>Hello, TOKEN-TOKEN-TOKEN-1</p><script nonce="R1R1R1R1R1R1R1R1R1R1R1R1">{"nick":"TOKEN-TOKEN-TOKEN-1"}</script>', {
        seconds: 5,
      });
    await cache.get("k", { nonce: "R1R1R1R1R1R1R1R1R1R1R1R1", nickname: "TOKEN-TOKEN-TOKEN-1" }, render);
    const { page: p, hit } = await cache.get("k", { nonce: "R2R2R2R2R2R2R2R2R2R2R2R2", nickname: "TOKEN-TOKEN-TOKEN-1" }, render);
    expect(hit).toBe(true);
    expect(text(p, { nonce: "V1", nickname: "김하나" })).toBe('<p>Hello, 김하나</p><script nonce="V1">{"nick":"김하나"}</script>');
    expect(text(p, { nonce: "V2", nickname: "Bob" })).toBe('<p>Hello, Bob</p><script nonce="V2">{"nick":"Bob"}</script>');
    // A response without a value for one of the page's holes is a bug, never a page with the render's token.
    expect(() => pageBody(p, { nonce: "V3V3V3V3V3V3V3V3V3V3V3V3" }, true)).toThrow(/nickname/);
  });

  it("keeps the text many pages share (the translations) once, and gives every page back whole", async () => {
    const strings = JSON.stringify(
      Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`key${i}`, `번역 ${i} ${randomBytes(6).toString("hex")}`])),
    );
    const pageOf = (i: number, nonce: string) =>
      `<html><body><p>Page ${i} ${randomBytes(200).toString("hex")}</p><script id="i18n-strings" type="application/json">${strings}</script><script nonce="${nonce}">x</script></body></html>`;
    const nonce = "A".repeat(24);
    const plain = createPageCache();
    const sharing = createPageCache({ sharedRegions: jsonScriptRegion("i18n-strings") });
    const pages = Array.from({ length: 20 }, (_, i) => pageOf(i, nonce));
    for (const [i, html] of pages.entries()) {
      await plain.get(`k${i}`, { nonce }, async () => page(html, { seconds: 30 }));
      await sharing.get(`k${i}`, { nonce }, async () => page(html, { seconds: 30 }));
    }
    expect(sharing.bytes).toBeLessThan(plain.bytes / 3);
    for (const [i, html] of pages.entries()) {
      const { page: p, hit } = await sharing.get(`k${i}`, { nonce }, async () => page("other", { seconds: 30 }));
      expect(hit).toBe(true);
      expect(text(p, { nonce: "B".repeat(24) })).toBe(html.replace(nonce, "B".repeat(24)));
      expect(text(p, { nonce: "C".repeat(24) }, false)).toBe(html.replace(nonce, "C".repeat(24)));
    }
    // A region holding one of the response's values is kept in the page (never shared with another).
    const token = "T".repeat(24);
    const personal = `<script id="i18n-strings" type="application/json">${strings.replace("key1", token)}</script>`;
    await sharing.get("personal", { nonce, nickname: token }, async () => page(personal, { seconds: 30 }));
    const { page: again } = await sharing.get("personal", { nonce, nickname: token }, async () => page("other", { seconds: 30 }));
    expect(text(again, { nonce, nickname: "Bob" })).toBe(personal.replace(token, "Bob"));
  });

  it("evicts the least recently used pages beyond its size", async () => {
    const cache = createPageCache({ maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await cache.get(key, { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page(key, { seconds: 30 }));
    expect(cache.size).toBe(2);
    expect((await cache.get("a", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("a2", { seconds: 30 }))).hit).toBe(false);
  });

  it("keeps its pages within its byte budget, counting packed bodies, headers and keys", async () => {
    const body = randomBytes(10_000).toString("base64"); // hardly compressible
    const one = createPageCache();
    await one.get("en /a", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page(body, { seconds: 30 }));
    const cost = one.bytes;
    expect(cost).toBeGreaterThan(7_000 + "content-type".length + "text/html".length + 2 * "en /a".length);
    const cache = createPageCache({ maxBytes: cost * 8 + 100 });
    for (let i = 0; i < 20; i++)
      await cache.get(`en /${String.fromCharCode(97 + i)}`, { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page(body, { seconds: 30 }));
    expect(cache.size).toBe(8);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    // The most recent pages stayed; the first went.
    expect((await cache.get("en /t", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("again", { seconds: 30 }))).hit).toBe(true);
    expect((await cache.get("en /a", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("again", { seconds: 30 }))).hit).toBe(false);
  });

  it("keeps pages compressed and gives them back byte for byte", async () => {
    const html = `<!DOCTYPE html><html lang="ko"><body>${'<div class="card"><a href="/contents/video?code=VI1">영상 카드</a></div>'.repeat(1500)}</body></html>`;
    const cache = createPageCache();
    await cache.get("ko /video", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page(html, { seconds: 30 }));
    expect(cache.bytes).toBeLessThan(Buffer.byteLength(html) / 10);
    const hit = await cache.get("ko /video", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("other", { seconds: 30 }));
    expect(hit.hit).toBe(true);
    expect(text(hit.page)).toBe(html);
    expect(text(hit.page, N, false)).toBe(html);
    expect(pageBody(hit.page, N, true).encoding).toBe("gzip");
  });

  it("serves a page taking more than an eighth of its budget without keeping it", async () => {
    const cache = createPageCache({ maxBytes: 80_000 });
    await cache.get("big", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () =>
      page(randomBytes(20_000).toString("base64"), { seconds: 30 }),
    );
    expect(cache.size).toBe(0);
    await cache.get("small", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () =>
      page(randomBytes(5_000).toString("base64"), { seconds: 30 }),
    );
    expect(cache.size).toBe(1);
  });

  it("drops expired pages at its sweep, before the budget needs the room", async () => {
    const cache = createPageCache({ sweepMs: 1000 });
    await cache.get("a", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("a", { seconds: 5 }), 0);
    await cache.get("b", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("b", { seconds: 300 }), 500);
    const held = cache.bytes;
    expect(cache.size).toBe(2);
    // a's period and the one more it may be served stale end at 10 s.
    await cache.get("c", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("c", { seconds: 300 }), 6000);
    expect(cache.size).toBe(3);
    await cache.get("d", { nonce: "nnnnnnnnnnnnnnnnnnnnnnnn" }, async () => page("d", { seconds: 300 }), 11_000);
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(held + held / 2); // a (expired) went, c and d came: all four are the same size
  });

  it("answers a page just rendered as views of its bytes with the visitor's values between them, not a copy", async () => {
    const cache = createPageCache();
    const html = `<script nonce="${"A".repeat(24)}">1</script><p>é</p><script nonce="${"A".repeat(24)}">2</script>`;
    const { page: p } = await cache.get("k", { nonce: "AAAAAAAAAAAAAAAAAAAAAAAA" }, async () => page(html, { seconds: 5 }));
    if (p.kind !== "rendered") throw new Error("expected the render's own page");
    const { parts, encoding } = pageBody(p, { nonce: "BBBBBBBBBBBBBBBBBBBBBBBB" }, true);
    expect(encoding).toBeNull();
    expect(Buffer.concat(parts).toString()).toBe(html.replaceAll("A".repeat(24), "B".repeat(24)));
    const views = parts.filter((part) => part.buffer === p.body.buffer && part.byteOffset >= p.body.byteOffset);
    expect(views.reduce((n, part) => n + part.length, 0)).toBe(p.body.length - 2 * 24);
  });
});
