/**
 * Country of a visitor, from a CDN header or a configured HTTP geolocation service.
 * The HTTP contract (GEO_API_URL with an `{ip}` placeholder) accepts the common answers of such services:
 * a JSON body with `country_code`, `countryCode` or `country` (ISO 3166-1 alpha-2), or a plain-text code.
 */
export interface CountryRequest {
  ip: string;
  headers: Headers;
}

export interface CountryResolver {
  countryOf(req: CountryRequest): Promise<string | null>;
}

const CODE = /^[A-Z]{2}$/;
const normalise = (value: unknown): string | null => {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return CODE.test(code) && code !== "XX" && code !== "T1" ? code : null;
};

/** CloudFront-Viewer-Country or CF-IPCountry, when the deployment sits behind such a CDN. */
export function cdnCountry(headers: Headers): string | null {
  return normalise(headers.get("cloudfront-viewer-country")) ?? normalise(headers.get("cf-ipcountry"));
}

const PRIVATE_IP = /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|fc|fd|fe80|::ffff:127\.)/i;

export function createHttpCountryResolver(options: {
  urlTemplate: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  cacheSize?: number;
}): CountryResolver {
  const cache = new Map<string, string | null>();
  const max = options.cacheSize ?? 5000;
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    async countryOf({ ip }) {
      if (!ip || PRIVATE_IP.test(ip)) return null;
      if (cache.has(ip)) return cache.get(ip) ?? null;
      let country: string | null = null;
      try {
        const res = await fetchImpl(options.urlTemplate.replace("{ip}", encodeURIComponent(ip)), {
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: { accept: "application/json, text/plain" },
        });
        if (res.ok) {
          const text = (await res.text()).trim();
          if (text.startsWith("{")) {
            const body = JSON.parse(text) as Record<string, unknown>;
            country = normalise(body.country_code) ?? normalise(body.countryCode) ?? normalise(body.country);
          } else {
            country = normalise(text);
          }
        }
      } catch {
        // A slow or failing geolocation service must never break a page: fall through to Accept-Language.
        return null;
      }
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(ip, country);
      return country;
    },
  };
}
