import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EventArticle } from "../components/event-article";
import { eventPage } from "../market/events.server";
import { bodyText } from "../utils/body-links";
import { cacheHeaders } from "../utils/cache";
import { publicOrigin } from "../utils/origin.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";
import { isTestMode } from "../utils/test-mode.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["event"] };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const found = await eventPage(context.db, context.locale, params.id, new URL(request.url).searchParams, isTestMode(context));
  if (!found) throw redirect("/404");
  const { event, includeTest } = found;
  return {
    event,
    backTo: includeTest ? "/event?testYn=Y" : "/event",
    seo: await pageSeo(request, context, {
      title: event.title,
      description: bodyText(event.body).replace(/\s+/g, " ").slice(0, 150),
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
  return <EventArticle event={event} backTo={backTo} />;
}
