import type { Locale } from "../i18n/config";
import { VAT_RATE_PERCENT } from "./rules";

export type Currency = "KRW" | "USD";

/** Currency follows the storefront language: ko charges KRW, en charges USD (DESIGN.md). */
export const currencyFor = (locale: Locale): Currency => (locale === "ko" ? "KRW" : "USD");

/** VAT on an amount in minor units, rounded half up to a whole minor unit. */
export const vatOf = (amount: number): number => Math.round((amount * VAT_RATE_PERCENT) / 100);

export const withVat = (amount: number): number => amount + vatOf(amount);

// Building an Intl.NumberFormat costs far more than using one: keep one per language and currency.
const formatters = new Map<string, Intl.NumberFormat>();

/** Formats minor units: KRW has no minor unit, USD has cents. */
export function formatMoney(minor: number, currency: Currency, locale: Locale): string {
  const key = `${locale}:${currency}`;
  let format = formatters.get(key);
  if (!format) {
    const digits = currency === "USD" ? 2 : 0;
    format = new Intl.NumberFormat(locale === "ko" ? "ko-KR" : "en-US", {
      style: "currency",
      currency,
      maximumFractionDigits: digits,
      minimumFractionDigits: digits,
    });
    formatters.set(key, format);
  }
  return format.format(currency === "USD" ? minor / 100 : minor);
}
