import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { maintenanceWindow } from "../market/policies.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The service-inspection page, without site chrome: the store is closed while it shows. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [window, seo] = await Promise.all([maintenanceWindow(context.db), pageSeo(request, context, { titleKey: "serviceCheck.title" })]);
  return data({ window, seo, locale: context.locale }, { status: 503, headers: { "Retry-After": "3600" } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function ServiceCheck() {
  const { window, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const fmt = new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-US", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Asia/Seoul",
  });
  return (
    <main id="main" className="plain-page">
      <h1>{t("serviceCheck.heading")}</h1>
      <p>{t("serviceCheck.message")}</p>
      {window ? (
        <p className="notice-box">
          {t("serviceCheck.window", { start: fmt.format(new Date(window.start)), end: fmt.format(new Date(window.end)) })}
        </p>
      ) : null}
    </main>
  );
}
