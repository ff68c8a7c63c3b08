import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { listOutbox } from "../market/mail/outbox.server";
import { outboxReader } from "../utils/operator-session.server";
import { pageSeo } from "../utils/page.server";
import { seoMeta } from "../utils/seo";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["outbox"] };

/** Test mode: the mail the store queued, newest first (the outbox transport only, for a signed-in operator). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await outboxReader(request, context))) throw data(null, { status: 404 });
  return data(
    { mails: await listOutbox(context.db), seo: await pageSeo(request, context, { titleKey: "outbox.title" }) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Members' mail, for an operator: never kept by a browser or a shared cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" });

export const meta: MetaFunction<typeof loader> = ({ data }) => [...seoMeta(data?.seo), { name: "robots", content: "noindex" }];

export default function Outbox() {
  const { mails } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="account-page wide">
      <h1>{t("outbox.title")}</h1>
      <p className="notice-box test-mode" role="note">
        {t("outbox.lead")}
      </p>
      {mails.length === 0 ? (
        <p>{t("outbox.empty")}</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">{t("outbox.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("outbox.created")}</th>
              <th scope="col">{t("outbox.to")}</th>
              <th scope="col">{t("outbox.subject")}</th>
              <th scope="col">{t("outbox.status")}</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((m) => (
              <tr key={m.id}>
                <td>{m.created_at.slice(0, 19).replace("T", " ")}</td>
                <td>{m.to_address}</td>
                <td>
                  <Link to={`/outbox/${m.id}`}>{m.subject}</Link>
                </td>
                <td>
                  {t(`outbox.state.${m.status}`)}
                  {m.last_error ? ` (${m.last_error})` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
