import { safeRedirect } from "remix-utils/safe-redirect";

/** The longest path a redirect goes back to (the store's own addresses are far shorter). */
export const MAX_REDIRECT_CHARS = 2048;

/**
 * A same-site path to go to after a form, or the default. On top of remix-utils' checks it refuses control
 * characters and backslashes anywhere: browsers drop tabs and newlines from URLs and read "\" as "/", so
 * "/\t/evil.example" would become "//evil.example".
 */
export function safePath(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  const value = typeof to === "string" ? to : null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (value && /[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  // An address longer than any the store links to is not echoed into a Location header.
  if (value && value.length > MAX_REDIRECT_CHARS) return fallback;
  return safeRedirect(value, fallback);
}
