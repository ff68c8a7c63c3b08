import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["loadingPage"] };

/**
 * An interstitial shown while a pop-up or the editor hands over to the store (payment windows, the
 * download bridge): it forwards to a same-site `to` address, with a link for when scripts are off.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const to = safePath(new URL(request.url).searchParams.get("to"), "/");
  return { to, seo: await pageSeo(request, context, { titleKey: "loadingPage.title" }) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Loading() {
  const { to } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => window.location.replace(to), 300);
    return () => clearTimeout(timer);
  }, [to]);
  return (
    <main id="main" className="plain-page" aria-busy="true">
      <div className="spinner" aria-hidden="true" />
      <h1>{t("loading")}</h1>
      <p>
        <a href={to}>{t("loadingPage.continue")}</a>
      </p>
    </main>
  );
}
