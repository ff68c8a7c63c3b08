import type { Locale } from "../i18n/config";

const formats = new Map<string, Intl.DateTimeFormat>();
const KO_DAY_PERIODS: Record<string, string> = { AM: "오전", PM: "오후" };

/**
 * A date (and time) in Asia/Seoul as text. Call it in loaders and send the text: the server's ICU and the
 * browser's can spell the same moment differently (Node's ICU 78 writes "PM" where Chromium writes "오후"), and a
 * component that formats on both sides fails to hydrate. Korean times get the Korean day periods (오전/오후), which
 * Node's ICU 78 spells "AM"/"PM".
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
  if (locale !== "ko") return format.format(new Date(iso));
  return format
    .formatToParts(new Date(iso))
    .map((part) => (part.type === "dayPeriod" ? (KO_DAY_PERIODS[part.value] ?? part.value) : part.value))
    .join("");
}
