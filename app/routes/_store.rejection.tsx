import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { UNSUBSCRIBE_TOKEN_MAX_CHARS, unsubscribe, unsubscribeTarget } from "../market/mail/unsubscribe.server";
import { sessionSecret } from "../utils/cookies.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["rejection"] };

/**
 * Mail opt-out (no login): the link in a marketing mail shows whose mail stops and asks to confirm; confirming turns
 * market_email_agree off and goes to /rejec-complete. A mail client's one-click POST (RFC 8058,
 * `List-Unsubscribe=One-Click`) unsubscribes at once. A bad or tampered link gets a clear page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const target = await unsubscribeTarget(context.db, token, sessionSecret(context.env));
  const seo = await pageSeo(request, context, { titleKey: "rejection.title" });
  const headers = { "Cache-Control": "private, no-store" };
  if (!target) return data({ seo, token: "", email: null }, { status: 400, headers });
  return data({ seo, token, email: target.email.replace(/^(.).*(@.*)$/, "$1***$2") }, { headers });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const token = String(form.get("token") ?? url.searchParams.get("token") ?? "");
  const done = await unsubscribe(context.db, token, sessionSecret(context.env));
  // RFC 8058: a mail client's one-click POST gets a plain answer, not a page.
  if (form.get("List-Unsubscribe") === "One-Click") return new Response(null, { status: done ? 200 : 400 });
  // A token longer than any the store signs is not echoed back into the Location header: the bad-link page (400).
  if (!done) return redirect(token.length <= UNSUBSCRIBE_TOKEN_MAX_CHARS ? `/rejection?token=${encodeURIComponent(token)}` : "/rejection");
  return redirect("/rejec-complete");
}

export default function Rejection() {
  const { token, email } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="message-page">
      <h1>{t("rejection.title")}</h1>
      {email ? (
        <Form method="post">
          <p>{t("rejection.lead", { email })}</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button">
            {t("rejection.confirm")}
          </button>
        </Form>
      ) : (
        <p role="alert">{t("rejection.invalid")}</p>
      )}
    </section>
  );
}
