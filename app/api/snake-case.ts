/**
 * The API answers snake_case fields (spec section 7: data.total_count, order_no...): a domain value written in
 * camelCase is turned into the API's shape here, keys only, all the way down (values are left as they are).
 */
export type SnakeCase<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}`
  : S;

export type Snaked<T> = T extends readonly (infer U)[]
  ? Snaked<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeCase<K> : K]: Snaked<T[K]> }
    : T;

export const snakeKey = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * How deep snakeKeys goes. The API's bodies and answers are a few levels deep; a hostile body can be 20,000 (a JSON
 * array inside an array...): below this depth values are left as they are, and the route's schema refuses them.
 */
const SNAKE_DEPTH = 16;

export function snakeKeys<T>(value: T, depth = 0): Snaked<T> {
  if (depth > SNAKE_DEPTH) return value as Snaked<T>;
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v, depth + 1)) as Snaked<T>;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeKey(k), snakeKeys(v, depth + 1)])) as Snaked<T>;
  return value as Snaked<T>;
}

/**
 * A value whose keys are sent as they are (a payment gateway's browser-SDK parameters): snakeKeys stops at it.
 * Its prototype is null, so it is not a plain object to snakeKeys; JSON and zod read it as any object.
 */
export function verbatim<T extends object>(value: T): T {
  return Object.assign(Object.create(null), value);
}

/** Keys of `before` (a plain object tree) that `after` lacks: what an answer schema left out, as dotted paths. */
export function droppedKeys(before: unknown, after: unknown, at = ""): string[] {
  if (Array.isArray(before) && Array.isArray(after))
    return before.flatMap((v, i) => droppedKeys(v, after[i], `${at}[]`)).filter((k, i, all) => all.indexOf(k) === i);
  if (!isPlain(before) || !isPlain(after)) return [];
  return Object.keys(before).flatMap((k) =>
    k in after
      ? droppedKeys((before as Record<string, unknown>)[k], (after as Record<string, unknown>)[k], at ? `${at}.${k}` : k)
      : (before as Record<string, unknown>)[k] === undefined
        ? []
        : [at ? `${at}.${k}` : k],
  );
}

const isPlain = (v: unknown): v is object =>
  v !== null && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v));
