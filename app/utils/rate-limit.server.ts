import type { HeadersFunction } from "@remix-run/node";
import type { Locale } from "../i18n/config";
import { fixedT } from "../i18n/i18n.server";
import { type RateLimited, RULES } from "../market/rate-limits.server";

/** Whole seconds to wait, at least 1 (the Retry-After header's value). */
export const retryAfterSeconds = (retryAfterMs: number) => Math.max(1, Math.ceil(retryAfterMs / 1000));

/** The Retry-After header of a refused request. */
export const retryAfterHeaders = (retryAfterMs: number) => ({ "Retry-After": String(retryAfterSeconds(retryAfterMs)) });

/** The limits whose refusal says which limit it is (limits.reason.<rule>), by bucket. */
const REASONS = new Map<string, { rule: keyof typeof RULES; limit: number }>(
  (
    [
      "requestKey",
      "requestCompany",
      "requestAddress",
      "keyLookupFailures",
      "keyLookupAddress",
      "keyLookupKey",
      "keyLookupCompany",
      "handOffFailures",
      "handOffAddress",
      "handOffKey",
    ] as const
  ).map((rule) => [RULES[rule].bucket, { rule, limit: RULES[rule].limit }]),
);

/**
 * "Too many attempts. Please try again in N minutes." (seconds under a minute, hours from two hours), translated on
 * the server: forms carry it as their error text, which the page's t() shows as it is. With the bucket of a limit
 * that has its own reason (purchase requests and key lookups: per key, per company, per address), the reason
 * replaces "Too many attempts.".
 */
export function tooManyText(locale: Locale, retryAfterMs: number, bucket?: string): string {
  const seconds = retryAfterSeconds(retryAfterMs);
  const t = fixedT(locale);
  const reason = bucket ? REASONS.get(bucket) : undefined;
  const [unit, count] =
    seconds < 60 ? ["Seconds", seconds] : seconds < 2 * 3600 ? ["Minutes", Math.ceil(seconds / 60)] : ["Hours", Math.ceil(seconds / 3600)];
  if (!reason) return t(`limits.tryAgain${unit}`, { count });
  return `${t(`limits.reason.${reason.rule}`, { limit: reason.limit })} ${t(`limits.retryIn${unit}`, { count })}`;
}

/** tooManyText for a RateLimited refusal. */
export const refusalText = (locale: Locale, error: RateLimited) => tooManyText(locale, error.retryAfterMs, error.bucket);

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
