import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import type { MarketEvent } from "../market/events.server";
import { bodyParts } from "../utils/body-links";
import { CopyCode } from "./copy-code";

/**
 * An event as the storefront's /event/{id} shows it: running (period in Asia/Seoul, picture, text, coupon) or the
 * event-ended page. The console's preview renders the same with its headings one level down.
 */
export function EventArticle({ event, backTo, heading = "h1" }: { event: MarketEvent; backTo: string; heading?: "h1" | "h2" }) {
  const { t } = useTranslation();
  const H = heading;
  const Sub = heading === "h1" ? "h2" : "h3";
  if (event.state === "ended") {
    // The spec's event-ended page.
    return (
      <section className="message-page event-ended">
        <H>{t("event.endedTitle")}</H>
        <p>{t("event.endedMessage", { title: event.title, to: event.times.to })}</p>
        <p className="muted">{t("event.endedMore")}</p>
        <p className="event-ended-links">
          <Link to={backTo} className="button">
            {t("event.seeRunning")}
          </Link>{" "}
          <Link to="/" className="button button-ghost">
            {t("event.home")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <article className="event-detail">
      <p className="breadcrumb">
        <Link to={backTo}>{t("event.back")}</Link>
      </p>
      <H>{event.title}</H>
      <p className="event-badges">
        <span className="badge">{t("event.running")}</span>
        {event.test ? <span className="badge badge-test">{t("event.test")}</span> : null}
      </p>
      {event.test ? <p className="notice-box">{t("event.testNote")}</p> : null}
      <dl className="facts">
        <dt>{t("event.periodLabel")}</dt>
        <dd>{`${t("event.period", { from: event.times.from, to: event.times.to })} (${t("event.timeZone")})`}</dd>
      </dl>
      {event.image ? <img className="event-image" src={event.image} alt="" width={1200} height={600} /> : null}
      <div className="event-body">
        {event.body.split(/\n+/).map((p) => (
          <p key={p}>
            {bodyParts(p).map((part, i) =>
              part.href ? (
                <Link key={i} to={part.href}>
                  {part.text}
                </Link>
              ) : (
                part.text
              ),
            )}
          </p>
        ))}
      </div>
      {event.coupon ? (
        <section className="event-coupon" aria-labelledby="event-coupon">
          <Sub id="event-coupon">
            {t("event.couponHeading")}
            {event.coupon.percent ? <span className="badge">{t("event.percentOff", { percent: event.coupon.percent })}</span> : null}
          </Sub>
          <CopyCode
            code={event.coupon.code}
            label={t("event.coupon")}
            messages={{
              copy: t("event.copy"),
              copied: t("event.copied", { code: event.coupon.code }),
              failed: t("event.copyFailed"),
            }}
          />
          <p className="muted">{t("event.couponHow")}</p>
          <p>
            <Link to="/price" className="button button-ghost">
              {t("event.usePasses")}
            </Link>
          </p>
        </section>
      ) : null}
    </article>
  );
}
