import { useTranslation } from "../i18n/react";
import { PopupLink } from "./popup-link";

/** Opens the printable quote in its own window; a blocked window is reported (PopupLink). */
export function QuoteLink({ href, className }: { href: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <PopupLink href={href} className={className}>
      {t("request.openQuote")}
    </PopupLink>
  );
}
