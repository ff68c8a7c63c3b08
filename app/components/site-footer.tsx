import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/** The footer with the business information Korean e-commerce law asks for, and the policy links. */
export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container">
        <nav aria-label={t("footer.nav")}>
          <ul className="footer-links">
            <li>
              <Link to="/policy?type=terms">{t("footer.terms")}</Link>
            </li>
            <li>
              <Link to="/policy?type=privacy">
                <strong>{t("footer.privacy")}</strong>
              </Link>
            </li>
            <li>
              <Link to="/policy?type=paid">{t("footer.paid")}</Link>
            </li>
            <li>
              <Link to="/notice">{t("footer.notice")}</Link>
            </li>
            <li>
              <Link to="/event">{t("event.title")}</Link>
            </li>
          </ul>
        </nav>
        <address className="business-info">
          <p>
            <strong>{t("footer.company")}</strong> · {t("footer.ceo")} · {t("footer.businessNo")} · {t("footer.mailOrderNo")}
          </p>
          <p>
            {t("footer.address")} · {t("footer.phone")} · {t("footer.email")}
          </p>
          <p>
            {t("footer.hosting")} · {t("footer.privacyOfficer")}
          </p>
        </address>
        <p className="copyright">{t("footer.copyright")}</p>
      </div>
    </footer>
  );
}
