import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { MyPageNav } from "../components/mypage-nav";
import type { loader as storeLoader } from "./_store";

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
