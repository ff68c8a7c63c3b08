import { Link } from "@remix-run/react";
import type { Locale } from "../i18n/config";
import { passTitle } from "../i18n/pass-title";
import { useTranslation } from "../i18n/react";
import { formatMoney } from "../market/money";

/** The four payment steps (spec section 2), the current one marked for assistive technology. */
export function PaySteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  const { t } = useTranslation();
  return (
    <ol className="pay-steps" aria-label={t("pay.steps")}>
      {([1, 2, 3, 4] as const).map((n) => (
        <li
          key={n}
          aria-current={n === current ? "step" : undefined}
          className={n === current ? "current" : n < current ? "done" : undefined}
        >
          <span className="pay-step-no">{n}</span> {t(`pay.step${n}`)}
        </li>
      ))}
    </ol>
  );
}

export interface SummaryLine {
  key: string;
  title: string;
  itemType: string;
  passCount?: number;
  image: string | null;
  unit: number;
}

/** The order's lines and its amount, VAT and total, in one currency. */
export function OrderSummary({
  lines,
  totals,
  currency,
  locale,
}: {
  lines: SummaryLine[];
  totals: { amount: number; discount: number; vat: number; total: number };
  currency: "KRW" | "USD";
  locale: Locale;
}) {
  const { t } = useTranslation();
  const money = (n: number) => formatMoney(n, currency, locale);
  return (
    <>
      <ul className="cart-lines pay-lines" aria-label={t("pay.items")}>
        {lines.map((l) => (
          <li key={l.key} className="cart-line">
            {l.image ? (
              <img src={l.image} alt="" width={96} height={54} loading="lazy" />
            ) : (
              <span className="cart-glyph" aria-hidden="true">
                ★
              </span>
            )}
            <span className="cart-line-info">
              <span>{l.itemType === "pass" ? passTitle(t, l.title, l.passCount ?? 0) : l.title}</span>
              <small className="muted">{l.itemType === "pass" ? t("pay.pass") : t(`item.types.${l.itemType}`)}</small>
            </span>
            <span className="price">{money(l.unit)}</span>
          </li>
        ))}
      </ul>
      <dl className="price-box" aria-label={t("cart.summary")}>
        <dt>{t("cart.amount")}</dt>
        <dd>{money(totals.amount)}</dd>
        {totals.discount ? (
          <>
            <dt>{t("pay.discount")}</dt>
            <dd>−{money(totals.discount)}</dd>
          </>
        ) : null}
        <dt>{t("cart.vat")}</dt>
        <dd>{money(totals.vat)}</dd>
        <dt>{t("cart.total")}</dt>
        <dd className="price-total">{money(totals.total)}</dd>
      </dl>
    </>
  );
}

/**
 * The page a payment stops on: abandoned at the gateway (/pay-cancel) or refused or failed (/pay-error). The
 * order stays in the session, so "Try again" returns to step 3.
 */
export function PayStopped({ titleKey, messageKey }: { titleKey: string; messageKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="pay-page">
      <h1>{t(titleKey)}</h1>
      <p className="notice-box" role="alert">
        {t(messageKey)}
      </p>
      <p className="pay-actions">
        <Link to="/pay03" className="button">
          {t("pay.retry")}
        </Link>
        <Link to="/cart" className="button button-ghost">
          {t("pay.backToCart")}
        </Link>
      </p>
    </section>
  );
}
