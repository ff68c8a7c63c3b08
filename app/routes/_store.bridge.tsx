import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { redeemSignInHandOff } from "../market/users/hand-off.server";
import { sessionSecret } from "../utils/cookies.server";
import { handOffCookies, handOffDestination, linkLicencePath } from "../utils/hand-off.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["bridge"] };

/**
 * The hand-off page from the editor (docs/editor-sign-in.md): the editor opens `/bridge?encrypt=<token>` with a
 * token from `POST /api/v1/auth/request_blowfish`. A genuine, unexpired, unused token opens what its kind says: an
 * individual member's session (on to `redirectTo`, My page by default), the key-only webview of a business key
 * (on to /mypage/sw, never an account's session), or, for a key no market account owns, the way to join and link
 * it. Anything else says the link is spent.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("encrypt") ?? "";
  const redeemed = token ? await redeemSignInHandOff(context.db, { token, secret: sessionSecret(context.env) }) : null;
  const noStore = { "Cache-Control": "private, no-store" };
  if (redeemed && redeemed.kind !== "join") {
    const headers = new Headers(noStore);
    for (const c of await handOffCookies(context, redeemed)) headers.append("Set-Cookie", c);
    throw redirect(handOffDestination(redeemed, url.searchParams.get("redirectTo")), { headers });
  }
  const join = redeemed?.kind === "join" ? { serial: redeemed.license.serial, next: linkLicencePath(redeemed.license.serial) } : null;
  return data(
    { join, seo: await pageSeo(request, context, { titleKey: join ? "bridge.joinTitle" : "bridge.title" }) },
    { status: join ? 200 : 400, headers: noStore },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Bridge() {
  const { join } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (join) {
    const next = encodeURIComponent(join.next);
    return (
      <section className="message-page">
        <h1>{t("bridge.joinTitle")}</h1>
        <p>{t("bridge.joinLead", { serial: join.serial })}</p>
        <p className="pay-actions">
          <Link to={`/join?redirectTo=${next}`} className="button">
            {t("bridge.join")}
          </Link>
          <Link to={`/login?redirectTo=${next}`} className="button button-ghost">
            {t("bridge.signIn")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="message-page">
      <h1>{t("bridge.title")}</h1>
      <p role="alert">{t("bridge.spent")}</p>
      <p>
        <Link to="/login?redirectTo=%2Fmypage%2Fhome" className="button">
          {t("header.signIn")}
        </Link>
      </p>
    </section>
  );
}
