import { HttpResponse, http } from "msw";

/**
 * A geolocation service's HTTP contract (see app/integrations/geo): `GET <template with {ip}>` answering JSON
 * with an ISO country code, or plain text on the `/country/` form. 211.234.x.x is a Korean address here.
 */
const countryOf = (ip: string) => (ip.startsWith("211.234.") ? "KR" : "US");

export const geoHandlers = [
  http.get("https://geo.example.test/:ip/json", ({ params }) =>
    HttpResponse.json({ ip: params.ip, country_code: countryOf(String(params.ip)) }),
  ),
  http.get(
    "https://geo.example.test/:ip/country/",
    ({ params }) => new HttpResponse(`${countryOf(String(params.ip))}\n`, { headers: { "content-type": "text/plain" } }),
  ),
];
