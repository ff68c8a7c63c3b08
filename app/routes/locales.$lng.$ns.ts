import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLocale } from "../i18n/config";
import { localeVersion, namespaceData } from "../i18n/i18n.server";

/**
 * /locales/<lng>/<ns>?v=<version>: one namespace of one language as JSON, for the browser's i18next when a
 * navigation needs a namespace the document did not carry. With the language's current version in the address it is
 * cached for a year (a change of any string changes the address); without it, revalidated every time.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const lng = params.lng;
  const data = isLocale(lng) && params.ns ? namespaceData(lng, params.ns) : undefined;
  if (!isLocale(lng) || data === undefined) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const current = new URL(request.url).searchParams.get("v") === localeVersion[lng];
  return new Response(JSON.stringify(data), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
