import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { requireOperator } from "./guard.server";
import type { loader as layoutLoader } from "./layout";

export { AdminError as ErrorBoundary } from "./parts";

/** /admin: the sections the operator's role reaches. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  return null;
}

export default function AdminHome() {
  const layout = useRouteLoaderData<typeof layoutLoader>("admin");
  const { t } = useTranslation();
  return (
    <main className="admin-page">
      <h1>{t("admin.core.home.heading")}</h1>
      <p>{t("admin.core.home.lead")}</p>
      <ul className="admin-tiles">
        {(layout?.areas ?? []).map((a) => (
          <li key={a}>
            <Link to={`/admin/${a}`}>{t(`admin.core.nav.${a}`)}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
