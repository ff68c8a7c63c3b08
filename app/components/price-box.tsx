import type { Locale } from "../i18n/config";
import { useTranslation } from "../i18n/react";
import { type Currency, formatMoney, vatOf } from "../market/money";

/** Price with and without VAT 10% in the visitor's currency, or the item's free/benefit kind. */
export function PriceBox({
  priceType,
  price,
  currency,
  locale,
}: {
  priceType: "paid" | "free" | "benefit";
  price: number;
  currency: Currency;
  locale: Locale;
}) {
  const { t } = useTranslation();
  if (priceType !== "paid") {
    return (
      <dl className="price-box">
        <dt>{t("item.kind")}</dt>
        <dd className="price-free">{t(`item.${priceType}`)}</dd>
      </dl>
    );
  }
  const vat = vatOf(price);
  return (
    <dl className="price-box">
      <dt>{t("item.priceExVat")}</dt>
      <dd>{formatMoney(price, currency, locale)}</dd>
      <dt>{t("item.vat")}</dt>
      <dd>{formatMoney(vat, currency, locale)}</dd>
      <dt>{t("item.total")}</dt>
      <dd className="price-total">{formatMoney(price + vat, currency, locale)}</dd>
    </dl>
  );
}
