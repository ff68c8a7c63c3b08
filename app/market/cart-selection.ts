/**
 * The cart's selection (issue 18, point 13): every line starts selected, as stores do, so what is kept is the
 * lines the shopper unticked ("off"). It travels in the address (`off=3,7`), so it survives a change of tab, with or
 * without JavaScript: a tab is a submit of the cart form (GET) naming the lines it showed (`shown`), the ticked ones
 * (`cart_id`) and the lines unticked on other tabs (`off_prev`).
 */
const MAX = 100;

/** Cart line ids from `off=3,7` (unreadable parts dropped, at most 100). */
export function parseOff(value: string | null | undefined): number[] {
  if (!value) return [];
  const ids = value
    .split(",")
    .map((s) => Number(s))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return [...new Set(ids)].slice(0, MAX);
}

/** The unticked lines after a tab's form was sent: those of other tabs as they were, this tab's as the boxes say. */
export function nextOff(previous: readonly number[], shown: readonly number[], ticked: readonly number[]): number[] {
  const shownSet = new Set(shown);
  const tickedSet = new Set(ticked);
  return [...new Set([...previous.filter((id) => !shownSet.has(id)), ...shown.filter((id) => !tickedSet.has(id))])].slice(0, MAX);
}

/** The cart's address for a tab (null: all) and the unticked lines. */
export function cartHref(tab: string | null, off: readonly number[]): string {
  const params = new URLSearchParams();
  if (tab) params.set("type", tab);
  if (off.length) params.set("off", off.join(","));
  const query = params.toString();
  return query ? `/cart?${query}` : "/cart";
}
