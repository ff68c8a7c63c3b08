import { type ReactNode, useState } from "react";
import { useTranslation } from "../i18n/react";

/**
 * A link that opens its page in a window of its own (the printable quote, a licence certificate). Without
 * JavaScript it is a plain link to a new tab; with it, a window the browser blocked (window.open answering null) is
 * reported with the spec's message, 'Pop-up is blocked, please allow pop-ups'.
 */
export function PopupLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
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
        {children} <span className="visually-hidden">{t("purchase.newWindow")}</span>
      </a>
      <span role="alert" className="field-error">
        {blocked ? t("request.popupBlocked") : ""}
      </span>
    </>
  );
}
