import type { HeadersFunction } from "@remix-run/node";
import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";

/** Whole seconds to wait, at least 1 (the Retry-After header's value). */
export const retryAfterSeconds = (retryAfterMs: number) => Math.max(1, Math.ceil(retryAfterMs / 1000));

/** The Retry-After header of a refused request. */
export const retryAfterHeaders = (retryAfterMs: number) => ({ "Retry-After": String(retryAfterSeconds(retryAfterMs)) });

/**
 * "Too many attempts. Please try again in N minutes." (seconds under a minute), translated on the server: forms
 * carry it as their error text, which the page's t() shows as it is.
 */
export function tooManyText(locale: Locale, retryAfterMs: number): string {
  const seconds = retryAfterSeconds(retryAfterMs);
  const t = fixedT(locale);
  return seconds < 60 ? t("limits.tryAgainSeconds", { count: seconds }) : t("limits.tryAgainMinutes", { count: Math.ceil(seconds / 60) });
}

/**
 * The `headers` export of a page whose action can be refused: a document response carries only what `headers`
 * answers, so this passes the parent's headers on and adds the action's Retry-After.
 */
export const withRetryAfter: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
