/**
 * The permalink of the page a visitor signs in from (spec section 4: "Login ... reads user type from query";
 * "Permalink query market-query is restored when the user_type query exists"). Sign-in returns to
 * `path?user_type=N&market-query=<the page's own query>`; the root loader then restores `path?<query>`.
 */
export const USER_TYPE_PARAM = "user_type";
export const MARKET_QUERY_PARAM = "market-query";

/** Where a finished sign-in goes: the same-site path `to`, its query carried in market-query. */
export function signedInAddress(to: string, userType: number): string {
  const q = to.indexOf("?");
  const path = q < 0 ? to : to.slice(0, q);
  const query = q < 0 ? "" : to.slice(q + 1);
  const params = new URLSearchParams({ [USER_TYPE_PARAM]: String(userType) });
  if (query) params.set(MARKET_QUERY_PARAM, query);
  return `${path}?${params}`;
}

/**
 * The address with its permalink query restored, or null when the URL carries no user_type. Only the query is
 * taken from market-query, re-encoded as search parameters: the path never changes, so it cannot lead off-site.
 */
export function restoredAddress(url: URL): string | null {
  if (!url.searchParams.has(USER_TYPE_PARAM)) return null;
  const params = new URLSearchParams(url.searchParams.get(MARKET_QUERY_PARAM) ?? "");
  for (const [key, value] of url.searchParams)
    if (key !== USER_TYPE_PARAM && key !== MARKET_QUERY_PARAM && !params.has(key)) params.append(key, value);
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}
