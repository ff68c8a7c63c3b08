/**
 * What an order holds, named in the viewer's language from its items (never a name frozen at purchase time):
 * "<first item> and N more", where a pass is "<group> pass · <count>". The storefront's pages, the webview, the
 * users/orders API and the payment request sent to the gateway all name orders here.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema";
import type { Locale } from "../../i18n/config";
import { fixedT } from "../../i18n/i18n.server";
import { passTitle } from "../../i18n/pass-title";
import { passGroupOf } from "../pass-groups";

type Executor = Kysely<Database> | Transaction<Database>;

/** One line of an order as far as its name goes: a content's title, or a pass's group and size. */
export interface NamedLine {
  title: string | null;
  passGroup?: string | null;
  passCount?: number | null;
}

/** The title of one line in the viewer's language. */
export function lineTitle(line: NamedLine, locale: Locale): string {
  if (line.passGroup) return passTitle(fixedT(locale), line.passGroup, line.passCount ?? 0);
  return line.title ?? "";
}

/** The name of an order made of these lines: the first line's title, and how many more. */
export function contentsName(lines: readonly NamedLine[], locale: Locale): string {
  if (lines.length === 0) return "";
  const first = lineTitle(lines[0], locale);
  if (lines.length === 1) return first;
  return fixedT(locale)("orders.contentsMore", { first, count: lines.length - 1 });
}

/** The names of these orders in the viewer's language, read from their items (an order without items: absent). */
export async function orderContents(db: Executor, orderIds: readonly number[], locale: Locale): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return names;
  const rows = await db
    .selectFrom("order_items")
    .leftJoin("contents", "contents.id", "order_items.content_id")
    .leftJoin("pass_prices", "pass_prices.id", "order_items.pass_price_id")
    .select([
      "order_items.order_id",
      "contents.title_ko",
      "contents.title_en",
      "pass_prices.contents_flag",
      "pass_prices.contents_type_sub",
      "pass_prices.contents_count",
    ])
    .where("order_items.order_id", "in", ids)
    .orderBy("order_items.order_id")
    .orderBy("order_items.id")
    .execute();
  const lines = new Map<number, NamedLine[]>();
  for (const r of rows) {
    const line: NamedLine =
      r.contents_flag !== null && r.contents_flag !== undefined
        ? { title: null, passGroup: passGroupOf(r.contents_flag, r.contents_type_sub ?? null), passCount: r.contents_count }
        : { title: (locale === "ko" ? r.title_ko : r.title_en) ?? r.title_en ?? r.title_ko ?? "" };
    const list = lines.get(r.order_id) ?? [];
    list.push(line);
    lines.set(r.order_id, list);
  }
  for (const [id, list] of lines) names.set(id, contentsName(list, locale));
  return names;
}

/** One order's name, falling back to its payment number when it has no items. */
export async function orderContentsOf(db: Executor, order: { id: number; order_no: string }, locale: Locale): Promise<string> {
  return (await orderContents(db, [order.id], locale)).get(order.id) || order.order_no;
}
