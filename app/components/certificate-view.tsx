import type { ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/react";
import type { Certificate } from "../market/orders/certificate.server";

/**
 * A printable licence certificate (plain layout): a member's (/mypage/certificate/{line}) or a key-only buyer's
 * (the editor's /mypage/sw/certificate/{line}, the mail link's /mypage/order/{id}/certificate/{line}). `actions`
 * are the page's own links beside the print button.
 */
export function CertificateView({
  certificate: c,
  paidText,
  untilText,
  actions,
}: {
  certificate: Certificate;
  paidText: string;
  untilText: string;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  return (
    <main id="main" className="certificate">
      <header>
        <p className="certificate-brand">{t("brand")}</p>
        <h1>{t("certificate.title")}</h1>
        <p className="muted">
          {t("certificate.number")}: {c.number}
        </p>
      </header>
      <p>{t("certificate.statement", { buyer: c.buyer.nickname, item: c.item.title })}</p>
      <dl className="facts">
        <dt>{t("certificate.item")}</dt>
        <dd>
          {c.item.title} ({c.item.code}, {t(`item.types.${c.item.type}`)})
        </dd>
        <dt>{t("certificate.licence")}</dt>
        <dd>{c.licence ? `${c.licence.serial}${c.licence.alias ? ` (${c.licence.alias})` : ""}` : "—"}</dd>
        <dt>{t("certificate.buyer")}</dt>
        <dd>
          {c.buyer.nickname} · {c.buyer.email}
        </dd>
        {c.buyer.youtubeChannelId ? (
          <>
            <dt>{t("certificate.channel")}</dt>
            <dd>https://www.youtube.com/channel/{c.buyer.youtubeChannelId}</dd>
          </>
        ) : null}
        <dt>{t("certificate.payment")}</dt>
        <dd>
          {c.orderNo} · {paidText}
        </dd>
        <dt>{t("certificate.until")}</dt>
        <dd>{untilText}</dd>
        <dt>{t("certificate.status")}</dt>
        <dd>{c.status === "active" ? t("certificate.valid") : t("certificate.cancelled")}</dd>
      </dl>
      <h2>{t("certificate.termsTitle")}</h2>
      <p>{t("certificate.terms")}</p>
      <p className="no-print pay-actions">
        {hydrated ? (
          <button type="button" className="button" onClick={() => window.print()}>
            {t("certificate.print")}
          </button>
        ) : null}
        {actions}
      </p>
    </main>
  );
}
