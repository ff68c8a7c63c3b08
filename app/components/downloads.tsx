import { useEffect, useId, useState } from "react";
import { useTranslation } from "../i18n/react";
import type { DownloadRow } from "../market/downloads/library.server";
import { DOWNLOAD_DIALOG_CLOSE_MS } from "../market/rules";

/**
 * A pass of the licence on a download page (the website's and the webview's): what is left and until when, or that
 * it is used up (its status from passState) while its period still runs.
 */
/** The items a licence can download, each with a checkbox (expired and discontinued ones shown, not selectable). */
export function DownloadTable({ rows }: { rows: DownloadRow[] }) {
  const { t } = useTranslation();
  return (
    <div className="embedded-table">
      <table className="data-table embedded-items">
        <caption className="visually-hidden">{t("download.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("orders.select")}</th>
            <th scope="col">{t("orders.contents")}</th>
            <th scope="col">{t("download.source")}</th>
            <th scope="col">{t("orders.usableUntil")}</th>
            <th scope="col">{t("download.count")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((i) => (
            <tr key={`${i.source}-${i.contentId}`} className={i.expired || i.discontinued ? "is-unavailable" : undefined}>
              <td>
                <input
                  type="checkbox"
                  name="item"
                  value={i.contentId}
                  disabled={i.expired || i.discontinued}
                  aria-label={t("orders.selectLine", { title: i.title })}
                />
              </td>
              <td>
                {i.title}
                <br />
                <small className="muted">{t(`item.types.${i.type}`)}</small>
              </td>
              <td>{t(`download.sourceKind.${i.source}`)}</td>
              <td>
                {i.discontinued
                  ? t("item.discontinued")
                  : i.expired
                    ? i.until
                      ? t("download.expiredOn", { date: i.until })
                      : t("download.expired")
                    : i.until || "—"}
              </td>
              <td>{i.downloads}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One pass of the licence and what is left of it; a used-up one says the spec's 'no remaining downloads' (section 8),
 * so nobody asks it for more.
 */
export function PassLeft({ pass }: { pass: { group: string | null; remaining: number; total: number; until: string; status: string } }) {
  const { t } = useTranslation();
  const values = { group: t(`price.group.${pass.group}`), remaining: pass.remaining, total: pass.total, date: pass.until };
  return pass.status === "used_up" ? <strong>{t("download.passUsedUp", values)}</strong> : t("download.passLeft", values);
}

/**
 * The hand-over to the editor: opens the deep link at once, shows the 'preparing' dialog that closes itself after
 * 60 s (spec section 4), the link again as a button, and what was left out.
 */
export function EditorHandOver({ deepLink, excluded, actions }: { deepLink: string; excluded: boolean; actions: React.ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  const [preparing, setPreparing] = useState(true);
  useEffect(() => {
    setPreparing(true);
    window.location.href = deepLink;
    const timer = setTimeout(() => setPreparing(false), DOWNLOAD_DIALOG_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [deepLink]);
  return (
    <>
      {excluded ? (
        <p className="notice-box" role="status">
          {t("download.excluded")}
        </p>
      ) : null}
      {preparing ? (
        <div className="preparing" role="dialog" aria-modal="false" aria-labelledby={`${id}-preparing`}>
          <p id={`${id}-preparing`}>{t("download.preparing")}</p>
          <button type="button" className="button button-ghost" onClick={() => setPreparing(false)}>
            {t("download.close")}
          </button>
        </div>
      ) : null}
      <p>{t("download.bridgeLead")}</p>
      <p className="pay-actions">
        <a href={deepLink} className="button">
          {t("download.openEditor")}
        </a>
        {actions}
      </p>
    </>
  );
}
