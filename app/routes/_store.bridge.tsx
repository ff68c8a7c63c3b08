import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { redeemSignInHandOff } from "../market/users/hand-off.server";
import { redirectSignedIn } from "../utils/auth.server";
import { sessionSecret } from "../utils/cookies.server";
import { pageSeo } from "../utils/page.server";
import { safePath } from "../utils/redirect";
import { seoMeta } from "../utils/seo";

/**
 * The hand-off page from the editor (docs/editor-sign-in.md): the editor opens `/bridge?encrypt=<token>` with a
 * token from `POST /api/v1/auth/request_blowfish`; a genuine, unexpired, unused token signs the licence's owner in
 * without a password and goes on to `redirectTo` (My page by default). Anything else says the link is spent.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("encrypt") ?? "";
  const session = token ? await redeemSignInHandOff(context.db, { token, secret: sessionSecret(context.env) }) : null;
  if (session) throw await redirectSignedIn(context, session, safePath(url.searchParams.get("redirectTo"), "/mypage/home"));
  return data(
    { seo: await pageSeo(request, context, { titleKey: "bridge.title" }) },
    { status: 400, headers: { "Cache-Control": "private, no-store" } },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Bridge() {
  const { t } = useTranslation();
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
