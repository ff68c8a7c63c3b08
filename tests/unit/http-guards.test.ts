import { describe, expect, it } from "vitest";
import {
  bodyTypeRefusal,
  credentialRefusal,
  credentialRefusalMessage,
  crossOriginRefusal,
  hostRefusal,
  MAX_CREDENTIAL_CHARS,
  requestAddress,
} from "../../app/utils/http-guards.server";
import { safePath } from "../../app/utils/redirect";

const PUBLIC = "market.example";
const headersOf = (h: Record<string, string>) => (name: string) => h[name];

describe("cross-origin writes", () => {
  const check = (method: string, path: string, h: Record<string, string>) => crossOriginRefusal(method, path, headersOf(h), PUBLIC);

  it("refuses a page or sign-out post from another site, whatever its body", () => {
    for (const path of ["/cart", "/logout", "/mypage/member", "/join"])
      expect(check("POST", path, { host: "127.0.0.1:3000", origin: "https://evil.example" })?.status, path).toBe(403);
    expect(check("POST", "/cart", { host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" })?.status).toBe(403);
    expect(check("POST", "/cart", { host: "127.0.0.1:3000", origin: "null" })?.status).toBe(403);
    expect(check("POST", "/cart", { host: "127.0.0.1:3000", origin: "not a url" })?.status).toBe(403);
  });

  it("lets the store's own pages post, to the address they were served from or the public one", () => {
    expect(check("POST", "/cart", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" })).toBeNull();
    expect(check("POST", "/cart", { host: "internal:8080", origin: "https://market.example" })).toBeNull();
    // Clients that are not browsers send neither header.
    expect(check("POST", "/cart", { host: "127.0.0.1:3000" })).toBeNull();
    expect(check("GET", "/cart", { host: "127.0.0.1:3000", origin: "https://evil.example" })).toBeNull();
  });

  it("refuses cookie-only API writes from another site, but not calls carrying the authorizationToken header", () => {
    const evil = { host: "127.0.0.1:3000", origin: "https://evil.example", cookie: "gt=x" };
    expect(check("POST", "/api/v1/users", evil)?.status).toBe(403);
    expect(check("PUT", "/api/v1/users", evil)?.status).toBe(403);
    expect(check("DELETE", "/api/v1/carts", { ...evil, "sec-fetch-site": "cross-site" })?.status).toBe(403);
    expect(check("POST", "/api/v1/users", { ...evil, authorizationtoken: "token" })).toBeNull();
  });

  it("never refuses the gateways' webhooks", () => {
    expect(check("POST", "/webhooks/payments/sandbox", { host: "x", origin: "https://gateway.example" })).toBeNull();
  });
});

describe("page bodies", () => {
  it("accepts forms only", () => {
    expect(bodyTypeRefusal("POST", "/cart", "application/x-www-form-urlencoded")).toBeNull();
    expect(bodyTypeRefusal("POST", "/cart", "multipart/form-data; boundary=abc")).toBeNull();
    expect(bodyTypeRefusal("POST", "/cart", "multipart/form-data")?.status).toBe(400);
    expect(bodyTypeRefusal("POST", "/cart", "application/json")?.status).toBe(415);
    expect(bodyTypeRefusal("POST", "/cart", "text/plain")?.status).toBe(415);
    expect(bodyTypeRefusal("POST", "/cart", undefined)?.status).toBe(415);
    expect(bodyTypeRefusal("GET", "/cart", undefined)).toBeNull();
  });

  it("leaves the API, webhooks and reads alone", () => {
    expect(bodyTypeRefusal("POST", "/api/v1/carts", "application/json")).toBeNull();
    expect(bodyTypeRefusal("POST", "/webhooks/payments/sandbox", "application/json")).toBeNull();
  });
});

describe("the address a page is rendered for", () => {
  it("is the public origin plus the path, whatever the client claims", () => {
    expect(requestAddress("http://localhost:3000", "/video?page=2")?.href).toBe("http://localhost:3000/video?page=2");
    expect(requestAddress("https://market.example", "//evil.example/x")?.origin).toBe("https://market.example");
    expect(requestAddress("https://market.example", "http://evil.example/x")).toBeNull();
  });
});

describe("the Host header", () => {
  const host = (...values: string[]) => hostRefusal(values.flatMap((v) => ["Host", v]));

  it("serves any well-formed Host (it never becomes an address)", () => {
    for (const h of [
      "127.0.0.1:3000",
      "market.example",
      "evil.example",
      "LOCALHOST:80",
      "localhost.",
      "[::1]:3000",
      "xn--bcher-kva.example",
      "a:",
    ])
      expect(host(h), h).toBeNull();
    // HTTP/1.0 may send none (Node refuses an HTTP/1.1 request without one).
    expect(hostRefusal(["Accept", "*/*"])).toBeNull();
  });

  it("refuses a malformed one, or more than one, with a 400", () => {
    for (const h of [
      "",
      "a b",
      "[::1",
      "[zz::1]",
      "%%",
      "127.0.0.1:99999",
      "evil.example/x?y",
      "user:pass@evil.example",
      "h:1:2",
      "\xe9\xff.",
    ])
      expect(host(h)?.status, JSON.stringify(h)).toBe(400);
    expect(host("a.example", "b.example")?.status).toBe(400);
    expect(hostRefusal(["host", "a.example", "HOST", "a.example"])?.status).toBe(400);
  });
});

describe("overlong credentials", () => {
  const huge = "A".repeat(70_000);
  const justOver = "A".repeat(MAX_CREDENTIAL_CHARS + 1);

  it("refuses a token header or cookie past 4 KB with 400, naming it", () => {
    for (const name of ["authorizationtoken", "authorization", "ngt", "license_id", "hw_info"]) {
      expect(credentialRefusal(headersOf({ [name]: huge })), name).toEqual({ status: 400, name });
      expect(credentialRefusal(headersOf({ [name]: justOver })), name).toEqual({ status: 400, name });
    }
    expect(credentialRefusal(headersOf({ cookie: `lng=en; gt=${huge}; gsi=1` }))).toEqual({ status: 400, name: "cookie gt" });
    expect(credentialRefusal(headersOf({ cookie: `ngt=${justOver}` }))).toEqual({ status: 400, name: "cookie ngt" });
  });

  it("lets ordinary credentials through, however many cookies there are", () => {
    const token = "A".repeat(MAX_CREDENTIAL_CHARS);
    expect(credentialRefusal(headersOf({ authorizationtoken: token, ngt: "0123456789abcdef", license_id: "KEY-1" }))).toBeNull();
    const many = Array.from({ length: 40 }, (_, i) => `c${i}=${"v".repeat(200)}`).join("; ");
    expect(many.length).toBeGreaterThan(MAX_CREDENTIAL_CHARS);
    expect(credentialRefusal(headersOf({ cookie: many }))).toBeNull();
    expect(credentialRefusal(headersOf({}))).toBeNull();
  });

  it("says so in the caller's language, without echoing the value", () => {
    const refusal = { name: "authorizationtoken" };
    const en = credentialRefusalMessage(refusal, headersOf({ language: "en", authorizationtoken: huge }));
    expect(en).toBe(
      `The authorizationtoken sent with this request is too long (at most ${MAX_CREDENTIAL_CHARS} characters), so it was not read. Sign in again, or clear this site's cookies.`,
    );
    const ko = credentialRefusalMessage(refusal, headersOf({ "accept-language": "ko-KR,ko;q=0.9" }));
    expect(ko).toContain("너무 깁니다");
    // Remix's unsigned cookie holds the language as base64 JSON.
    const remembered = `lng=${encodeURIComponent(Buffer.from(JSON.stringify("ko")).toString("base64"))}`;
    expect(credentialRefusalMessage(refusal, headersOf({ cookie: remembered, "accept-language": "en" }))).toBe(ko);
    expect(en).not.toContain("AAAA");
  });

  it("never sends a 70,000-character address back as a redirect", () => {
    expect(safePath(`/search?q=${huge}`, "/")).toBe("/");
    expect(safePath("/cart?type=video", "/")).toBe("/cart?type=video");
  });
});
