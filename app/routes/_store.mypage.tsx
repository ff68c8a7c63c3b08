import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { MyPageNav } from "../components/mypage-nav";
import type { loader as storeLoader } from "./_store";

/** The namespaces of strings this page shows, beside its parents' (app/i18n/namespaces.ts). */
export const handle = { i18n: ["mypageNav"] };

/** My page's layout: the My page menu beside every My page screen, for a signed-in member. */
export default function MyPageLayout() {
  const store = useRouteLoaderData<typeof storeLoader>("routes/_store");
  const viewer = store?.viewer ?? null;
  if (!viewer) return <Outlet />;
  return (
    <div className="mypage-layout">
      <MyPageNav business={viewer.userType === 2} />
      <div className="mypage-body">
        <Outlet />
      </div>
    </div>
  );
}
