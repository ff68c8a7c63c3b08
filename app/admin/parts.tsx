import { Form, isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "../i18n/react";

/**
 * A console page's failure, inside the console's chrome: 403 (the operator's role does not reach the section),
 * 404, or anything else (nothing was changed). Console routes export it as their ErrorBoundary.
 */
export function AdminError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const text =
    status === 403
      ? { h: t("admin.core.forbidden.title"), p: t("admin.core.forbidden.message") }
      : status === 404
        ? { h: "404", p: t("admin.core.notFound") }
        : {
            h: t("admin.core.title"),
            p: t("admin.core.error"),
          };
  return (
    <main className="admin-page admin-error">
      <h1>{text.h}</h1>
      <p role="alert">{text.p}</p>
      <p>
        <Link to="/admin">{t("admin.core.nav.home")}</Link>
      </p>
    </main>
  );
}

export { AdminError as ErrorBoundary };

/** Page n of a console list, keeping the other query parameters. */
export function AdminPagination({ page, pages, href }: { page: number; pages: number; href: (n: number) => string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="admin-pagination" aria-label={t("admin.core.pagination.label")}>
      {page > 1 ? <Link to={href(page - 1)}>{t("admin.core.pagination.previous")}</Link> : null}
      <span>{t("admin.core.pagination.page", { page, pages })}</span>
      {page < pages ? <Link to={href(page + 1)}>{t("admin.core.pagination.next")}</Link> : null}
    </nav>
  );
}

/** What the last action did, read out politely; nothing when there is nothing to say. */
export function Done({ text }: { text: React.ReactNode }) {
  if (!text) return null;
  return (
    <p role="status" className="admin-ok">
      {text}
    </p>
  );
}

/** What is wrong, read out at once; `id` lets a form point at it with aria-describedby. Nothing when all is well. */
export function Problem({ id, text }: { id?: string; text: React.ReactNode }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="admin-alert">
      {text}
    </p>
  );
}

/**
 * A console list's filters: a GET form (it works without JavaScript) named for assistive technology, its fields,
 * the apply button and a link back to the unfiltered list.
 */
export function FilterForm({
  label,
  apply,
  reset,
  action,
  children,
}: {
  label: string;
  apply: string;
  reset?: { to: string; text: string; plain?: boolean };
  action?: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="get" action={action} className="admin-filters" aria-label={label}>
      {children}
      <button type="submit">{apply}</button>
      {reset ? reset.plain ? <a href={reset.to}>{reset.text}</a> : <Link to={reset.to}>{reset.text}</Link> : null}
    </Form>
  );
}

/** A text, search or date field inside its label (filters and simple forms). */
export function InputField({
  label,
  name,
  value,
  type = "text",
  maxLength,
}: {
  label: string;
  name: string;
  value: string;
  type?: "text" | "search" | "date";
  maxLength?: number;
}) {
  return (
    <label>
      {label}
      <input type={type} name={name} defaultValue={value} maxLength={maxLength} />
    </label>
  );
}

/** A labelled choice among `options` (value and label), with an "all" first when a filter may be left empty. */
export function SelectField({
  label,
  name,
  value,
  all,
  options,
}: {
  label: string;
  name: string;
  value: string;
  all?: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value}>
        {all === undefined ? null : <option value="">{all}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The options of a SelectField from a list of codes and how each is said. */
export const optionsOf = (codes: readonly string[], label: (code: string) => string) =>
  codes.map((value) => ({ value, label: label(value) }));

export type Column = string | { label: string; className?: string };

/**
 * A console table: scrollable on narrow screens, named by its caption, one header cell per column. With `empty`,
 * a list without rows is that sentence instead of an empty table.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  row,
  empty,
  className,
}: {
  caption: React.ReactNode;
  columns: readonly Column[];
  rows: readonly Row[];
  row: (row: Row, index: number) => React.ReactNode;
  empty?: string;
  className?: string;
}) {
  if (empty !== undefined && rows.length === 0) return <p>{empty}</p>;
  return (
    <TableScroll className={className}>
      <table className="admin-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === "string" ? (
                <th scope="col" key={c}>
                  {c}
                </th>
              ) : (
                <th scope="col" key={c.label} className={c.className}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{rows.map(row)}</tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A table wider than its box scrolls inside it; the keyboard must reach the box to scroll it (WCAG 2.1.1, axe's
 * scrollable-region-focusable), so it is in the tab order.
 */
export function TableScroll({ className, children }: { className?: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard to be scrolled
    <div className={className ? `admin-table-scroll ${className}` : "admin-table-scroll"} tabIndex={0}>
      {children}
    </div>
  );
}
