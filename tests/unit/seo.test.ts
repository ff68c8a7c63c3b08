import { describe, expect, it } from "vitest";
import { safePath } from "../../app/utils/redirect";
import { canonicalUrl, seoMeta } from "../../app/utils/seo";

describe("page metadata", () => {
  it("builds the canonical url from PUBLIC_URL and only the identifying parameters", () => {
    const req = new Request("http://internal:3000/policy?type=paid&utm_source=x");
    expect(canonicalUrl(req, "https://market.example/", ["type"])).toBe("https://market.example/policy?type=paid");
    // The request's host (the client's Host header) never reaches the page.
    expect(canonicalUrl(new Request("http://evil.example/policy"), "http://localhost:3000")).toBe("http://localhost:3000/policy");
  });

  it("emits title, description, keywords, canonical and Open Graph", () => {
    const tags = seoMeta({ title: "Audio", description: "d", keywords: "k", url: "https://m/audio", locale: "ko", siteName: "Shop" });
    expect(tags).toContainEqual({ title: "Audio | Shop" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://m/audio" });
    expect(tags).toContainEqual({ property: "og:locale", content: "ko_KR" });
    expect(seoMeta(undefined)).toEqual([]);
  });
});

describe("safe redirects", () => {
  it("keeps same-site paths and refuses everything that a browser could read as another site", () => {
    expect(safePath("/cart?type=video", "/")).toBe("/cart?type=video");
    for (const bad of [
      "//evil.example",
      "https://evil.example",
      "/\t/evil.example/x",
      "/\\evil.example",
      "/\n/evil",
      "evil",
      null,
      undefined,
    ]) {
      expect(safePath(bad as string, "/home")).toBe("/home");
    }
  });
});
