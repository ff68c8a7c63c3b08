import { NavLink } from "@remix-run/react";
import { useTranslation } from "../../i18n/react";

export const ORDER_STATUSES = ["pending", "waiting", "complete", "partially_cancelled", "cancelled", "failed"] as const;

/** The orders section's own pages. */
export function OrdersNav() {
  const { t } = useTranslation();
  return (
    <nav className="orders-nav" aria-label={t("admin.orders.nav.label")}>
      <NavLink to="/admin/orders" end>
        {t("admin.orders.nav.orders")}
      </NavLink>
      <NavLink to="/admin/orders/deposits">{t("admin.orders.nav.deposits")}</NavLink>
      <NavLink to="/admin/orders/reconciliation">{t("admin.orders.nav.reconciliation")}</NavLink>
    </nav>
  );
}
