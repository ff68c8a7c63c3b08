/**
 * The operator console's roles and what each may reach (issue 17). An area is a set of console pages and actions;
 * `admin` reaches every area. Plain module: the console's navigation (a component) reads it too.
 */
export const OPERATOR_ROLES = ["support", "catalog", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const ADMIN_AREAS = [
  "inquiries", // support: 1:1 inquiries
  "members", // support: members and licences
  "catalog", // catalog: items, packages, previews, bulk import
  "publishing", // catalog: banners, key visuals, keywords, notices, events, FAQs, the guide
  "orders", // finance: orders, cancels and refunds, virtual-account deposits, reconciliation
  "coupons", // finance: the promo coupon
  "reports", // finance: sales, downloads, top items, refunds
  "modes", // admin: service modes
  "operators", // admin: operator accounts
  "audit", // admin: the audit log
] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];

const AREA_ROLES: Record<AdminArea, readonly OperatorRole[]> = {
  inquiries: ["support"],
  members: ["support"],
  catalog: ["catalog"],
  publishing: ["catalog"],
  orders: ["finance"],
  coupons: ["finance"],
  reports: ["finance"],
  modes: [],
  operators: [],
  audit: [],
};

/** Whether a role may reach an area: its own areas, and every area for admin. */
export function roleAllows(role: OperatorRole, area: AdminArea): boolean {
  return role === "admin" || AREA_ROLES[area].includes(role);
}

/** The areas a role reaches, in the console's order. */
export function areasOf(role: OperatorRole): AdminArea[] {
  return ADMIN_AREAS.filter((a) => roleAllows(role, a));
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);
}

/**
 * A strong operator password: at least 10 characters with a letter, a digit and a symbol, and not the e-mail's
 * local part. Returns the message key of the first rule broken, or null.
 */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < 10 || password.length > 128) return "length";
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password) || !/[^A-Za-z0-9]/.test(password)) return "classes";
  const local = email.split("@")[0]?.toLowerCase() ?? "";
  if (local.length >= 4 && password.toLowerCase().includes(local)) return "email_in_password";
  return null;
}
