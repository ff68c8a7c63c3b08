import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolveLanguage } from "../../app/i18n/language.server";
import { createHttpCountryResolver } from "../../app/integrations/geo/country.server";
import { geoHandlers } from "../mocks/geo";

const server = setupServer(...geoHandlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const TEMPLATE = "https://geo.example.test/{ip}/json";
const req = (headers: Record<string, string> = {}) => new Request("http://store.test/", { headers });

describe("geolocation adapter (HTTP contract reproduced with msw)", () => {
  it("reads country_code, countryCode or country from JSON, or a plain-text code", async () => {
    const geo = createHttpCountryResolver({ urlTemplate: TEMPLATE, timeoutMs: 500 });
    expect(await geo.countryOf({ ip: "211.234.1.1", headers: new Headers() })).toBe("KR");
    expect(await geo.countryOf({ ip: "8.8.8.8", headers: new Headers() })).toBe("US");
    const text = createHttpCountryResolver({ urlTemplate: "https://geo.example.test/{ip}/country/", timeoutMs: 500 });
    expect(await text.countryOf({ ip: "211.234.1.1", headers: new Headers() })).toBe("KR");
  });

  it("never asks about private or loopback addresses", async () => {
    let asked = 0;
    server.use(
      http.get("https://geo.example.test/:ip/json", () => {
        asked++;
        return HttpResponse.json({ country_code: "KR" });
      }),
    );
    const geo = createHttpCountryResolver({ urlTemplate: TEMPLATE, timeoutMs: 500 });
    expect(await geo.countryOf({ ip: "127.0.0.1", headers: new Headers() })).toBeNull();
    expect(await geo.countryOf({ ip: "192.168.0.4", headers: new Headers() })).toBeNull();
    expect(asked).toBe(0);
  });

  it("caches answers per address", async () => {
    let asked = 0;
    server.use(
      http.get("https://geo.example.test/:ip/json", () => {
        asked++;
        return HttpResponse.json({ countryCode: "KR" });
      }),
    );
    const geo = createHttpCountryResolver({ urlTemplate: TEMPLATE, timeoutMs: 500 });
    await geo.countryOf({ ip: "1.2.3.4", headers: new Headers() });
    await geo.countryOf({ ip: "1.2.3.4", headers: new Headers() });
    expect(asked).toBe(1);
  });

  it("falls back to Accept-Language when the service fails, times out or answers nonsense", async () => {
    const sources = (t = 100) => ({ trustCdnCountry: true, geo: createHttpCountryResolver({ urlTemplate: TEMPLATE, timeoutMs: t }) });
    server.use(http.get("https://geo.example.test/:ip/json", () => new HttpResponse("down", { status: 503 })));
    expect(await resolveLanguage(req({ "accept-language": "ko" }), "5.6.7.8", sources())).toBe("ko");
    server.use(
      http.get("https://geo.example.test/:ip/json", async () => {
        await new Promise((r) => setTimeout(r, 400));
        return HttpResponse.json({ country_code: "US" });
      }),
    );
    expect(await resolveLanguage(req({ "accept-language": "ko" }), "5.6.7.9", sources(50))).toBe("ko");
    server.use(http.get("https://geo.example.test/:ip/json", () => HttpResponse.json({ country: "Korea" })));
    expect(await resolveLanguage(req(), "5.6.7.10", sources())).toBe("en");
  });

  it("uses the service's country before Accept-Language, and the CDN header before the service", async () => {
    const sources = { trustCdnCountry: true, geo: createHttpCountryResolver({ urlTemplate: TEMPLATE, timeoutMs: 500 }) };
    expect(await resolveLanguage(req({ "accept-language": "en" }), "211.234.1.1", sources)).toBe("ko");
    expect(await resolveLanguage(req({ "cf-ipcountry": "US" }), "211.234.1.1", sources)).toBe("en");
  });
});
