import { type LoaderFunctionArgs, type MetaFunction, redirect, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pagination } from "../components/pagination";
import { useTranslation } from "../i18n/react";
import { eventListPage } from "../market/events.server";
import { cacheHeaders } from "../utils/cache";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";
import { isTestMode } from "../utils/test-mode.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["event", "pagination"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const result = await eventListPage(context.db, context.locale, new URL(request.url).searchParams, isTestMode(context));
  const testQuery = result.includeTest ? "testYn=Y" : "";
  if (result.page > result.pages) throw redirect(`/event?page=${result.pages}${testQuery ? `&${testQuery}` : ""}`);
  return {
    ...result,
    testQuery,
    seo: await pageSeo(request, context, { titleKey: "event.title", descriptionKey: "event.description", keep: ["page"] }),
  };
}

export const headers = cacheHeaders("catalog");
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...seoMeta(data?.seo),
  ...(data?.includeTest ? [{ name: "robots", content: "noindex" }] : []),
];

type EventCard = SerializeFrom<typeof loader>["list"][number];

export default function EventList() {
  const { list, page, pages, testQuery } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const running = list.filter((e) => e.state === "running");
  const ended = list.filter((e) => e.state === "ended");
  const withTest = (path: string) => (testQuery ? `${path}${path.includes("?") ? "&" : "?"}${testQuery}` : path);
  const cards = (events: EventCard[]) => (
    <ul className="event-grid">
      {events.map((e) => (
        <li key={e.id} className={e.state === "ended" ? "event-card is-ended" : "event-card"}>
          <Link to={withTest(`/event/${e.id}`)} className="event-card-link">
            <span className="event-thumb">{e.image ? <img src={e.image} alt="" width={600} height={300} loading="lazy" /> : null}</span>
            <span className="event-badges">
              <span className={e.state === "ended" ? "badge badge-muted" : "badge"}>{t(`event.${e.state}`)}</span>
              {e.test ? <span className="badge badge-test">{t("event.test")}</span> : null}
            </span>
            <span className="event-title">{e.title}</span>
            <span className="event-period">
              <span className="visually-hidden">{t("event.periodLabel")}: </span>
              {t("event.period", { from: e.days.from, to: e.days.to })}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
  return (
    <section className="events">
      <h1>{t("event.title")}</h1>
      {list.length === 0 ? <p>{t("event.empty")}</p> : null}
      {running.length ? (
        <section aria-labelledby="events-running" className="section">
          <h2 id="events-running">{t("event.runningHeading")}</h2>
          {cards(running)}
        </section>
      ) : null}
      {ended.length ? (
        <section aria-labelledby="events-ended" className="section">
          <h2 id="events-ended">{t("event.endedHeading")}</h2>
          {cards(ended)}
        </section>
      ) : null}
      <Pagination page={page} pages={pages} href={(p) => withTest(`/event?page=${p}`)} />
    </section>
  );
}
