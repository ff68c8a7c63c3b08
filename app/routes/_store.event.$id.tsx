import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CopyCode } from "../components/copy-code";
import { useTranslation } from "../i18n/react";
import { eventPage } from "../market/events.server";
import { cacheHeaders } from "../utils/cache";
import { publicOrigin } from "../utils/origin.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";
import { isTestMode } from "../utils/test-mode.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const found = await eventPage(context.db, context.locale, params.id, new URL(request.url).searchParams, isTestMode(context));
  if (!found) throw redirect("/404");
  const { event, includeTest } = found;
  return {
    event,
    backTo: includeTest ? "/event?testYn=Y" : "/event",
    seo: await pageSeo(request, context, {
      title: event.title,
      description: event.body.replace(/\s+/g, " ").slice(0, 150),
      image: event.image ? `${publicOrigin(request, context)}${event.image}` : undefined,
      type: "article",
    }),
  };
}

export const headers = cacheHeaders("catalog");
// An ended or test event is not for search engines: the first is over, the second is not published.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...seoMeta(data?.seo),
  ...(data && (data.event.state === "ended" || data.event.test) ? [{ name: "robots", content: "noindex" }] : []),
];

export default function EventDetail() {
  const { event, backTo } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (event.state === "ended") {
    // The spec's event-ended page.
    return (
      <section className="message-page event-ended">
        <h1>{t("event.endedTitle")}</h1>
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
      <h1>{event.title}</h1>
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
          <p key={p}>{p}</p>
        ))}
      </div>
      {event.coupon ? (
        <section className="event-coupon" aria-labelledby="event-coupon">
          <h2 id="event-coupon">
            {t("event.couponHeading")}
            {event.coupon.percent ? <span className="badge">{t("event.percentOff", { percent: event.coupon.percent })}</span> : null}
          </h2>
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
