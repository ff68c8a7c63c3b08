import { createCookie } from "@remix-run/node";
import { type CountryResolver, cdnCountry } from "../integrations/geo/country.server";
import { fallbackLanguage, isLocale, type Locale } from "./config";

/** Remembers the language chosen with the `language` query parameter. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export const languageForCountry = (country: string): Locale => (country === "KR" ? "ko" : "en");

/** The first supported language of an Accept-Language header, by quality. */
export function languageFromAcceptLanguage(header: string | null): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { lang: tag.trim().toLowerCase().split("-")[0], q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((x) => x.lang && !Number.isNaN(x.q) && x.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((x) => x.lang).find(isLocale) ?? null;
}

export interface LanguageSources {
  trustCdnCountry: boolean;
  geo: CountryResolver | null;
}

/**
 * The visitor's language, in the order the spec and issue give: the `language` query parameter,
 * the remembered cookie, the visitor's country (CDN header, then the geolocation service), then
 * Accept-Language, and finally English.
 */
export async function resolveLanguage(request: Request, ip: string, sources: LanguageSources): Promise<Locale> {
  const url = new URL(request.url);
  const query = url.searchParams.get("language");
  if (isLocale(query)) return query;
  const remembered = await languageCookie.parse(request.headers.get("cookie"));
  if (isLocale(remembered)) return remembered;
  const country =
    (sources.trustCdnCountry ? cdnCountry(request.headers) : null) ??
    (sources.geo ? await sources.geo.countryOf({ ip, headers: request.headers }) : null);
  if (country) return languageForCountry(country);
  return languageFromAcceptLanguage(request.headers.get("accept-language")) ?? fallbackLanguage;
}

/**
 * When the address carries `language`, the answer is a redirect to the same address without it,
 * remembering a supported language in the cookie (Secure when the store is served over https). Returns null
 * when there is nothing to do.
 */
export async function languageQueryRedirect(
  request: Request,
  options: { secure: boolean } = { secure: false },
): Promise<{ location: string; cookie: string | null } | null> {
  const url = new URL(request.url);
  if (!url.searchParams.has("language")) return null;
  const value = url.searchParams.get("language");
  url.searchParams.delete("language");
  const location = url.pathname + (url.searchParams.size ? `?${url.searchParams}` : "") + url.hash;
  return { location, cookie: isLocale(value) ? await languageCookie.serialize(value, { secure: options.secure }) : null };
}
