import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { maintenanceWindow } from "../market/policies.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["serviceCheck"] };

/** The service-inspection page, without site chrome: the store is closed while it shows. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ window, text }, seo] = await Promise.all([
    maintenanceWindow(context.db, context.locale),
    pageSeo(request, context, { titleKey: "serviceCheck.title" }),
  ]);
  // Times are spelled on the server only (see utils/dates.ts).
  const times = window
    ? { start: seoulText(window.start, context.locale, "long"), end: seoulText(window.end, context.locale, "long") }
    : null;
  return data({ window: times, text, seo }, { status: 503, headers: { "Retry-After": "3600", "Cache-Control": "no-store" } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function ServiceCheck() {
  const { window, text } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="plain-page">
      <h1>{t("serviceCheck.heading")}</h1>
      <p>{t("serviceCheck.message")}</p>
      {text ? <p className="service-check-text">{text}</p> : null}
      {window ? <p className="notice-box">{t("serviceCheck.window", window)}</p> : null}
    </main>
  );
}
