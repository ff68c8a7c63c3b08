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

export function snakeKeys<T>(value: T): Snaked<T> {
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v)) as Snaked<T>;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeKey(k), snakeKeys(v)])) as Snaked<T>;
  return value as Snaked<T>;
}
