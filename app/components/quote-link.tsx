import { useState } from "react";
import { useTranslation } from "../i18n/react";

/**
 * Opens the printable quote in its own window. Without JavaScript it is a plain link to a new tab; with it, a window
 * the browser blocked is reported with the spec's message ('Pop-up is blocked, please allow pop-ups').
 */
export function QuoteLink({ href, className }: { href: string; className?: string }) {
  const { t } = useTranslation();
  const [blocked, setBlocked] = useState(false);
  return (
    <>
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={className}
        onClick={(event) => {
          event.preventDefault();
          const opened = window.open(href, "_blank");
          if (opened) opened.opener = null;
          setBlocked(!opened);
        }}
      >
        {t("request.openQuote")}
      </a>
      <span role="alert" className="field-error">
        {blocked ? t("request.popupBlocked") : ""}
      </span>
    </>
  );
}
