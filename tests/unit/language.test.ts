import { describe, expect, it } from "vitest";
import { languageCookie, languageFromAcceptLanguage, languageQueryRedirect, resolveLanguage } from "../../app/i18n/language.server";
import { cdnCountry } from "../../app/integrations/geo/country.server";

const none = { trustCdnCountry: true, geo: null };
const req = (url: string, headers: Record<string, string> = {}) => new Request(`http://store.test${url}`, { headers });

describe("language resolution", () => {
  it("ranks Accept-Language by quality and keeps only ko/en", () => {
    expect(languageFromAcceptLanguage("fr-FR,ko;q=0.8,en;q=0.9")).toBe("en");
    expect(languageFromAcceptLanguage("ko-KR,ko;q=0.9,en-US;q=0.8")).toBe("ko");
    expect(languageFromAcceptLanguage("de,fr")).toBeNull();
    expect(languageFromAcceptLanguage(null)).toBeNull();
  });

  it("prefers the query, then the cookie, then the country, then Accept-Language, then en", async () => {
    const cookie = (await languageCookie.serialize("ko")).split(";")[0];
    expect(await resolveLanguage(req("/?language=en", { cookie }), "", none)).toBe("en");
    expect(await resolveLanguage(req("/", { cookie, "cf-ipcountry": "US" }), "", none)).toBe("ko");
    expect(await resolveLanguage(req("/", { "cf-ipcountry": "KR", "accept-language": "en" }), "", none)).toBe("ko");
    expect(await resolveLanguage(req("/", { "accept-language": "ko" }), "", none)).toBe("ko");
    expect(await resolveLanguage(req("/"), "", none)).toBe("en");
  });

  it("ignores CDN headers when they are not trusted, and unknown/Tor codes", async () => {
    expect(await resolveLanguage(req("/", { "cf-ipcountry": "KR" }), "", { trustCdnCountry: false, geo: null })).toBe("en");
    expect(cdnCountry(new Headers({ "cf-ipcountry": "XX" }))).toBeNull();
    expect(cdnCountry(new Headers({ "cf-ipcountry": "T1" }))).toBeNull();
    expect(cdnCountry(new Headers({ "cloudfront-viewer-country": "kr" }))).toBe("KR");
  });

  it("redirects away the language query, keeping other parameters and the hash", async () => {
    const r = await languageQueryRedirect(req("/list/audio/3?page=2&language=ko"));
    expect(r?.location).toBe("/list/audio/3?page=2");
    expect(r?.cookie).toMatch(/^lng=/);
    expect(await languageQueryRedirect(req("/video"))).toBeNull();
    expect((await languageQueryRedirect(req("/?language=xx")))?.cookie).toBeNull();
    expect(r?.cookie).not.toMatch(/Secure/);
    expect((await languageQueryRedirect(req("/?language=en"), { secure: true }))?.cookie).toMatch(/; Secure/);
  });
});
