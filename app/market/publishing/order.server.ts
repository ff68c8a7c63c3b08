/** The ids in a new order: `id` swapped with its neighbour up (earlier) or down (later); at an end, unchanged. */
export function moveInOrder(ids: number[], id: number, direction: "up" | "down"): number[] {
  const out = [...ids];
  const at = out.indexOf(id);
  const to = direction === "up" ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= out.length) return out;
  [out[at], out[to]] = [out[to] as number, out[at] as number];
  return out;
}
