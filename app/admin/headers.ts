import type { HeadersFunction } from "@remix-run/node";

/**
 * Every console answer is private and never stored (the layout exports this; child routes inherit it), and a
 * refusal's Retry-After reaches the browser.
 */
export const adminHeaders: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Robots-Tag", "noindex, nofollow");
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
