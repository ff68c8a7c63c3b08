import type { Locale } from "../i18n/config";

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date (and time) in Asia/Seoul as text. Call it in loaders and send the text: the server's ICU and the
 * browser's can spell the same moment differently (Node's ICU 78 writes "PM" where Chromium writes "오후"), and a
 * component that formats on both sides fails to hydrate.
 */
export function seoulText(iso: string | null | undefined, locale: Locale, style: "date" | "dateTime" | "long" = "dateTime"): string {
  if (!iso) return "";
  const key = `${locale}:${style}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === "date"
        ? { dateStyle: "medium" }
        : style === "long"
          ? { dateStyle: "long", timeStyle: "medium" }
          : { dateStyle: "medium", timeStyle: "short" };
    format = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { ...options, timeZone: "Asia/Seoul" });
    formats.set(key, format);
  }
  return format.format(new Date(iso));
}
