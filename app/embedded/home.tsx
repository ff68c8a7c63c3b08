import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import type { loader as layoutLoader } from "./layout";

/**
 * The embedded home: which licence this editor installation speaks for. A business key has no login (spec section
 * 1): its home lists what the key-only experience offers, all bound to this key (docs/editor-sign-in.md).
 */
export default function EmbeddedHome() {
  const layout = useRouteLoaderData<typeof layoutLoader>("embedded");
  const { t, i18n } = useTranslation();
  const license = layout?.license;
  if (!license) return null;
  const until = license.validUntil
    ? new Intl.DateTimeFormat(i18n.language === "ko" ? "ko-KR" : "en-US", { dateStyle: "long", timeZone: "Asia/Seoul" }).format(
        new Date(license.validUntil),
      )
    : t("embedded.unlimitedPeriod");
  return (
    <section aria-labelledby="sw-license">
      <h1 id="sw-license">{license.alias ?? t("embedded.license")}</h1>
      <dl className="facts">
        <dt>{t("embedded.serial")}</dt>
        <dd>{license.serial}</dd>
        <dt>{t("embedded.status")}</dt>
        <dd>{t(`embedded.licenseStatus.${license.status}`)}</dd>
        <dt>{t("embedded.validUntil")}</dt>
        <dd>{until}</dd>
        <dt>{t("embedded.owner")}</dt>
        <dd>
          {t(`embedded.ownerKind.${license.ownerKind}`)}
          {license.ownerNickname ? ` · ${license.ownerNickname}` : ""}
        </dd>
        {license.pcName ? (
          <>
            <dt>{t("embedded.pcName")}</dt>
            <dd>{license.pcName}</dd>
          </>
        ) : null}
      </dl>
      {license.ownerKind === "b2bg" ? (
        <section aria-labelledby="sw-key-only" className="section">
          <h2 id="sw-key-only">{t("embedded.keyOnlyTitle")}</h2>
          <p className="muted">{t("embedded.keyOnlyLead")}</p>
          <ul>
            <li>
              <Link to="/mypage/sw/request">{t("embedded.keyOnlyRequest")}</Link>
            </li>
            <li>
              <a href="/cart">{t("embedded.keyOnlyBuy")}</a>
            </li>
            <li>
              <Link to="/mypage/sw/pay">{t("embedded.keyOnlyOrders")}</Link>
            </li>
            <li>
              <Link to="/mypage/sw/download">{t("embedded.keyOnlyDownloads")}</Link>
            </li>
          </ul>
        </section>
      ) : null}
    </section>
  );
}
