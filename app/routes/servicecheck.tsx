import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { maintenanceWindow } from "../market/policies.server";
import { seoulText } from "../utils/dates";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The service-inspection page, without site chrome: the store is closed while it shows. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [window, seo] = await Promise.all([maintenanceWindow(context.db), pageSeo(request, context, { titleKey: "serviceCheck.title" })]);
  // Times are spelled on the server only (see utils/dates.ts).
  const text = window
    ? { start: seoulText(window.start, context.locale, "long"), end: seoulText(window.end, context.locale, "long") }
    : null;
  return data({ window: text, seo }, { status: 503, headers: { "Retry-After": "3600" } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function ServiceCheck() {
  const { window } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="plain-page">
      <h1>{t("serviceCheck.heading")}</h1>
      <p>{t("serviceCheck.message")}</p>
      {window ? <p className="notice-box">{t("serviceCheck.window", window)}</p> : null}
    </main>
  );
}
