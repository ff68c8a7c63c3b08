import { Form, Link, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "../i18n/react";

/** One item a licence already holds (or a waiting request already asks for), as the notice shows it. */
export interface OverlapLine {
  /** What the removal form sends for it: a cart line id or a content id. */
  id: number;
  title: string;
  source: "purchase" | "pass" | "request" | "requested";
  /** Until when it can be used, spelled for the page's language on the server (empty for a waiting request). */
  until: string;
  requestNo: string | null;
  serial: string;
}

/**
 * "Already yours" (issue 24, point 3): the items the chosen licence already holds and can use, or that a waiting
 * purchase request for its key asks for, and one button that drops them all. A plain form post, so it works
 * without JavaScript; `serial` names the licence when there is one chosen, otherwise each line names its own.
 */
export function OverlapNotice({
  lines,
  serial,
  intent,
  field,
  action,
  keepHref,
}: {
  lines: OverlapLine[];
  serial?: string | null;
  intent: string;
  field: string;
  action?: string;
  /** Where "Buy them anyway" goes (the next step), when the page offers it. */
  keepHref?: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const id = useId();
  if (!lines.length) return null;
  return (
    <section className="overlap-notice" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t("cartCare.overlap.title")}</h2>
      <p>{serial ? t("cartCare.overlap.leadLicense", { serial }) : t("cartCare.overlap.leadCart")}</p>
      <ul>
        {lines.map((l) => (
          <li key={l.id}>
            <strong>{l.title}</strong>
            <small>
              {serial ? "" : `${t("cartCare.overlap.onLicense", { serial: l.serial })} · `}
              {t(`cartCare.overlap.${l.source}`, { date: l.until, number: l.requestNo ?? "" })}
            </small>
          </li>
        ))}
      </ul>
      <Form method="post" action={action} className="pay-actions">
        {lines.map((l) => (
          <input key={l.id} type="hidden" name={field} value={l.id} />
        ))}
        <button type="submit" name="intent" value={intent} className="button button-ghost" disabled={navigation.state !== "idle"}>
          {t("cartCare.overlap.remove", { count: lines.length })}
        </button>
        {keepHref ? (
          <Link to={keepHref} className="button button-ghost">
            {t("cartCare.overlap.keep")}
          </Link>
        ) : null}
      </Form>
    </section>
  );
}
