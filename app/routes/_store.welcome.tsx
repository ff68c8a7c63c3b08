import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { pageSeo } from "../utils/page.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";
import { readShopper } from "../utils/shopper.server";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["auth"] };

/**
 * /welcome greets a new market member (also reached with join_market=1 on any page, see the store layout). A new
 * account made on the company's sign-up is not signed in to the market yet: it is welcomed and asked to sign in,
 * and comes back to the page it came from. The words fit the account (issue 26.8): a business account, which cannot
 * buy passes, is not told about them, and a visitor, whose account this page cannot see, is not told it is ready.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await readShopper(request, context);
  const next = safePath(new URL(request.url).searchParams.get("redirectTo"), "/");
  return {
    nickname: viewer?.nickname ?? null,
    business: viewer?.userType === 2,
    next,
    signIn: `/login?redirectTo=${encodeURIComponent(next)}`,
    seo: await pageSeo(request, context, { titleKey: "auth.welcomeTitle" }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => seoMeta(data?.seo);

export default function Welcome() {
  const { nickname, business, next, signIn } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{nickname ? t("auth.welcome", { name: nickname }) : t("auth.welcomeTitle")}</h1>
      <p>{nickname ? t(business ? "auth.welcomeLeadBusiness" : "auth.welcomeLead") : t("auth.welcomeGuest")}</p>
      <p className="actions">
        {nickname ? (
          <Link className="button" to={next}>
            {t("auth.continueShopping")}
          </Link>
        ) : (
          <Link className="button" to={signIn}>
            {t("header.signIn")}
          </Link>
        )}{" "}
        <Link className="button button-ghost" to="/price">
          {t("nav.price")}
        </Link>
      </p>
    </section>
  );
}
