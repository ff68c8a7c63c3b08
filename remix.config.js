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
      // A key-only buyer's licence certificate, printable: outside the webview's layout, under its cookie's path.
      route("mypage/sw/certificate/:id", "embedded/certificate.tsx", { id: "embedded-certificate" });
      // The operator console (issue 17): its own plain layout; sign-in and sign-out sit beside it.
      route("admin/login", "admin/login.tsx", { id: "admin-login" });
      route("admin/logout", "admin/logout.tsx", { id: "admin-logout" });
      route("admin", "admin/layout.tsx", { id: "admin" }, () => {
        route("", "admin/index.tsx", { index: true, id: "admin-index" });
        route("operators", "admin/operators.tsx", { id: "admin-operators" });
        route("audit", "admin/audit.tsx", { id: "admin-audit" });
        // support (inquiries, FAQs, the guide)
        route("inquiries", "admin/support/inquiries.tsx", { id: "admin-inquiries" });
        route("inquiries/:id", "admin/support/inquiry.tsx", { id: "admin-inquiries-detail" });
        route("inquiries/:id/attachment", "admin/support/inquiry-attachment.ts", { id: "admin-inquiries-attachment" });
        route("publishing/faq", "admin/support/faq.tsx", { id: "admin-publishing-faq" });
        route("publishing/faq/:id", "admin/support/faq-edit.tsx", { id: "admin-publishing-faq-edit" });
        route("publishing/guide", "admin/support/guide.tsx", { id: "admin-publishing-guide" });

        // members
        route("members", "admin/members/index.tsx", { id: "admin-members" });
        route("members/:id", "admin/members/detail.tsx", { id: "admin-members-detail" });

        // catalog
        route("catalog", "admin/catalog/list.tsx", { id: "admin-catalog" });
        route("catalog/new", "admin/catalog/new.tsx", { id: "admin-catalog-new" });
        route("catalog/import", "admin/catalog/import.tsx", { id: "admin-catalog-import" });
        route("catalog/:id", "admin/catalog/item.tsx", { id: "admin-catalog-detail" });

        // publishing and the coupon
        route("publishing", "admin/publishing/index.tsx", { id: "admin-publishing" });
        route("publishing/banners", "admin/publishing/banners.tsx", { id: "admin-publishing-banners" });
        route("publishing/banners/:id", "admin/publishing/banner.tsx", { id: "admin-publishing-banner" });
        route("publishing/keywords", "admin/publishing/keywords.tsx", { id: "admin-publishing-keywords" });
        route("publishing/notices", "admin/publishing/notices.tsx", { id: "admin-publishing-notices" });
        route("publishing/notices/:id", "admin/publishing/notice.tsx", { id: "admin-publishing-notice" });
        route("publishing/events", "admin/publishing/events.tsx", { id: "admin-publishing-events" });
        route("publishing/events/:id", "admin/publishing/event.tsx", { id: "admin-publishing-event" });
        route("coupons", "admin/coupons/index.tsx", { id: "admin-coupons" });
        route("coupons/:id", "admin/coupons/coupon.tsx", { id: "admin-coupons-edit" });

        // orders
        route("orders", "admin/orders/orders.tsx", { id: "admin-orders" });
        route("orders/deposits", "admin/orders/deposits.tsx", { id: "admin-orders-deposits" });
        route("orders/reconciliation", "admin/orders/reconciliation.tsx", { id: "admin-orders-reconciliation" });
        route("orders/:id", "admin/orders/order.tsx", { id: "admin-orders-detail" });

        // service modes
        route("modes", "admin/modes/index.tsx", { id: "admin-modes" });

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
