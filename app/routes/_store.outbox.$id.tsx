import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { outboxMessage } from "../market/mail/outbox.server";
import { sessionSecret } from "../utils/cookies.server";
import { positiveId } from "../utils/input.server";
import { outboxReader } from "../utils/operator-session.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["orders", "outbox", "pay", "purchase", "request"] };

/** Test mode, for a signed-in operator: one queued mail, its headers and text, and the .eml the outbox transport wrote. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = positiveId.safeParse(params.id);
  const reader = await outboxReader(request, context);
  if (!reader || !id.success) throw data(null, { status: 404 });
  const mail = await outboxMessage(context.db, id.data, reader, context.env.PUBLIC_URL, sessionSecret(context.env));
  if (!mail) throw data(null, { status: 404 });
  return data(
    { mail, seo: await pageSeo(request, context, { titleKey: "outbox.title" }) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Members' mail, for an operator: never kept by a browser or a shared cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function OutboxMessage() {
  const { mail } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="account-page wide">
      <h1>{mail.subject}</h1>
      <dl className="facts">
        <dt>{t("outbox.to")}</dt>
        <dd>{mail.to}</dd>
        <dt>{t("outbox.status")}</dt>
        <dd>{t(`outbox.state.${mail.status}`)}</dd>
        {Object.entries(mail.headers).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <pre className="mail-text">{mail.text}</pre>
      <p>
        {mail.status === "sent" ? (
          <a href={`/outbox/${mail.id}/eml`} download={`${mail.id}.eml`}>
            {t("outbox.download")}
          </a>
        ) : null}{" "}
        <Link to="/outbox">{t("outbox.back")}</Link>
      </p>
    </section>
  );
}
