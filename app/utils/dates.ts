import type { Locale } from "../i18n/config";

const formats = new Map<string, Intl.DateTimeFormat>();
const KO_DAY_PERIODS: Record<string, string> = { AM: "오전", PM: "오후" };

/**
 * How a shown time names its zone (docs/decisions.md, 2026-11-28): "(KST)" after an English time, "(한국 시간)"
 * after a Korean one. Every time of day, and every day that is a deadline, says it; a day of record (an issue or
 * purchase date) does not.
 */
export const ZONE_LABEL: Record<Locale, string> = { en: "KST", ko: "한국 시간" };

/**
 * Styles: "date" a day of record, no zone (Nov 26, 2026); "until" a day a user acts by, with the zone (Nov 26,
 * 2026 (KST)); "dateTime" (Nov 26, 2026, 3:05 PM (KST)) and "long" (November 26, 2026 at 3:05:00 PM (KST)) always
 * with the zone.
 */
export type SeoulStyle = "date" | "until" | "dateTime" | "long";

/**
 * A date (and time) in Asia/Seoul as text. Call it in loaders and send the text: the server's ICU and the
 * browser's can spell the same moment differently (Node's ICU 78 writes "PM" where Chromium writes "오후"), and a
 * component that formats on both sides fails to hydrate. Korean times get the Korean day periods (오전/오후), which
 * Node's ICU 78 spells "AM"/"PM". Mails use it too, so a deadline says its zone on pages and in mail alike.
 */
export function seoulText(iso: string | null | undefined, locale: Locale, style: SeoulStyle = "dateTime"): string {
  if (!iso) return "";
  const dayOnly = style === "date" || style === "until";
  const key = `${locale}:${dayOnly ? "date" : style}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = dayOnly
      ? { dateStyle: "medium" }
      : style === "long"
        ? { dateStyle: "long", timeStyle: "medium" }
        : { dateStyle: "medium", timeStyle: "short" };
    format = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", { ...options, timeZone: "Asia/Seoul" });
    formats.set(key, format);
  }
  const text =
    locale !== "ko"
      ? format.format(new Date(iso))
      : format
          .formatToParts(new Date(iso))
          .map((part) => (part.type === "dayPeriod" ? (KO_DAY_PERIODS[part.value] ?? part.value) : part.value))
          .join("");
  return style === "date" ? text : `${text} (${ZONE_LABEL[locale]})`;
}
