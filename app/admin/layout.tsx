import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "../i18n/react";
import { areasOf } from "../market/operators/roles";
import adminStyles from "../styles/admin.css";
import { isTestMode } from "../utils/test-mode.server";
import { requireOperator } from "./guard.server";
import { AdminError } from "./parts";

/** /admin: the operator console's plain layout (no storefront chrome); every page below needs a signed-in operator. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context);
  return data(
    { operator, areas: areasOf(operator.role), testMode: isTestMode(context) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export { adminHeaders as headers } from "./headers";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];
export const meta: MetaFunction = () => [{ title: "Operator console" }, { name: "robots", content: "noindex, nofollow" }];

/** The console's strings (`t("admin.<section>.<key>")`): the `admin` namespace, for every page below. */
export const handle = { i18n: ["admin"] };

export default function AdminLayout() {
  const { operator, areas, testMode } = useLoaderData<typeof loader>();
  return (
    <AdminChrome operator={operator} areas={areas} testMode={testMode}>
      <Outlet />
    </AdminChrome>
  );
}

function AdminChrome({
  operator,
  areas,
  testMode,
  children,
}: {
  operator: { name: string; role: string };
  areas: string[];
  testMode: boolean;
  children: React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        {t("admin.core.skip")}
      </a>
      <header className="admin-header">
        <Link to="/admin" className="admin-brand">
          {t("admin.core.title")}
        </Link>
        <p className="admin-who">{t("admin.core.signedInAs", { name: operator.name, role: t(`admin.core.roles.${operator.role}`) })}</p>
        <a
          href={`?language=${i18n.language === "ko" ? "en" : "ko"}`}
          className="admin-language"
          lang={i18n.language === "ko" ? "en" : "ko"}
        >
          {t("admin.core.nav.language")}
        </a>
        <a href="/" className="admin-store">
          {t("admin.core.nav.store")}
        </a>
        <form method="post" action="/admin/logout">
          <button type="submit" className="admin-link-button">
            {t("admin.core.nav.signOut")}
          </button>
        </form>
      </header>
      {testMode ? (
        // In a landmark of its own, like the storefront's banner: every piece of content sits in one (issue 26).
        <aside className="admin-test-mode" aria-label={t("testModeLabel")}>
          <p>{t("admin.core.testMode")}</p>
        </aside>
      ) : null}
      <div className="admin-body">
        <nav className="admin-nav" aria-label={t("admin.core.nav.label")}>
          <ul>
            <li>
              <NavLink to="/admin" end>
                {t("admin.core.nav.home")}
              </NavLink>
            </li>
            {areas.map((a) => (
              <li key={a}>
                <NavLink to={`/admin/${a}`}>{t(`admin.core.nav.${a}`)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div id="admin-main" className="admin-main">
          {children}
        </div>
      </div>
    </div>
  );
}

/** A failure of the layout's own loader (a child's failure renders inside the chrome, see parts.tsx). */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>("admin");
  if (!layout) return <AdminError />;
  return (
    <AdminChrome operator={layout.operator} areas={layout.areas} testMode={layout.testMode}>
      <AdminError />
    </AdminChrome>
  );
}
