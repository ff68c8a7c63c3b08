import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resources, storeStrings } from "../../app/i18n/resources";
import { groupsIn, type RouteUsage, routeUsage } from "../../scripts/i18n-usage";

/** A route file's `handle.i18n`, as written. */
function declaredIn(file: string): string[] {
  const m = /export const handle = \{[^}]*i18n: \[([^\]]*)\]/.exec(fs.readFileSync(path.join("app", file), "utf8"));
  return m ? [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]) : [];
}

describe("each page's namespaces (issue 27: only the strings a page uses go with it)", () => {
  it("reads keys from code: whole keys, keys built from a prefix, never a comment or a table name", () => {
    const keys = new Set(["cart.title", "cart.items_one", "cart.items_other", "price.group.video"]);
    const prefixes = new Set(["cart.", "price.", "price.group."]);
    expect([...groupsIn('t("cart.title")', keys, prefixes)]).toEqual(["cart"]);
    expect([...groupsIn('t("search.label")', new Set(["search.label"]), new Set(["search."]))]).toEqual(["common"]);
    expect([...groupsIn('t("cart.items", { count })', keys, prefixes)]).toEqual(["cart"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of code that builds a key from a template
    expect([...groupsIn("t(`price.group.${g}`)", keys, prefixes)]).toEqual(["price"]);
    expect([...groupsIn('select("cart.id")', keys, prefixes)]).toEqual([]);
  });

  it("every page route declares, with its parents, every namespace its code can show", async () => {
    const usage = await routeUsage({ ...storeStrings.en, admin: resources.en.admin });
    const byId = new Map(usage.map((r) => [r.id, r]));
    const chain = (r: RouteUsage | undefined): string[] =>
      r ? [...declaredIn(r.file), ...chain(r.parentId ? byId.get(r.parentId) : undefined)] : [];
    const missing: string[] = [];
    for (const route of usage) {
      // Resource routes render no page: what they translate is done on the server (fixedT).
      if (!/export default/.test(fs.readFileSync(path.join("app", route.file), "utf8"))) continue;
      const declared = new Set(chain(route));
      const needed = new Set(route.namespaces);
      for (const ns of needed) if (!declared.has(ns)) missing.push(`${route.file}: ${ns}`);
    }
    expect(usage.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
    expect(declaredIn("root.tsx")).toContain("common");
  });

  it("every declared namespace exists in both languages", () => {
    const names = new Set(Object.keys(resources.en));
    expect(Object.keys(resources.ko).sort()).toEqual([...names].sort());
    const unknown: string[] = [];
    for (const file of fs.readdirSync("app", { recursive: true }) as string[])
      if (/\.tsx?$/.test(file)) for (const ns of declaredIn(file)) if (!names.has(ns)) unknown.push(`${file}: ${ns}`);
    expect(unknown).toEqual([]);
  });
});
