/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
  // The editor's webview pages live in their own tree without site chrome (DESIGN.md).
  // They hang off the root, so they never nest under the storefront's layout or /mypage.
  routes(defineRoutes) {
    return defineRoutes((route) => {
      route("mypage/sw", "embedded/layout.tsx", { id: "embedded" }, () => {
        route("", "embedded/index.tsx", { index: true, id: "embedded-index" });
        route("home", "embedded/home.tsx", { id: "embedded-home" });
        route("pay", "embedded/pay.tsx", { id: "embedded-pay" });
        route("pay/:id", "embedded/pay-detail.tsx", { id: "embedded-pay-detail" });
        route("download", "embedded/download.tsx", { id: "embedded-download" });
        route("download/start", "embedded/download-start.tsx", { id: "embedded-download-start" });
        route("benefit", "embedded/benefit.tsx", { id: "embedded-benefit" });
        route("request", "embedded/request.tsx", { id: "embedded-request" });
      });
      // The operator console (issue 17): its own plain layout; sign-in and sign-out sit beside it.
      route("admin/login", "admin/login.tsx", { id: "admin-login" });
      route("admin/logout", "admin/logout.tsx", { id: "admin-logout" });
      route("admin", "admin/layout.tsx", { id: "admin" }, () => {
        route("", "admin/index.tsx", { index: true, id: "admin-index" });
        route("operators", "admin/operators.tsx", { id: "admin-operators" });
        route("audit", "admin/audit.tsx", { id: "admin-audit" });
        // support (inquiries, FAQs, the guide)

        // members

        // catalog

        // publishing and the coupon

        // orders

        // service modes

        // reports
        route("reports", "admin/reports/sales.tsx", { id: "admin-reports" });
        route("reports/downloads", "admin/reports/downloads.tsx", { id: "admin-reports-downloads" });
        route("reports/top", "admin/reports/top.tsx", { id: "admin-reports-top" });
        route("reports/refunds", "admin/reports/refunds.tsx", { id: "admin-reports-refunds" });
        route("reports/export", "admin/reports/export.ts", { id: "admin-reports-export" });
      });
    });
  },
};
