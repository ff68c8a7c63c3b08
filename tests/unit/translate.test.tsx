// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { fixedT, serverBundles } from "../../app/i18n/i18n.server";
import { I18nProvider, I18nScript } from "../../app/i18n/react";
import { createT } from "../../app/i18n/translate";

describe("translate", () => {
  const bundle = {
    cart: { added: "Added to cart", items_one: "{{count}} item", items_other: "{{count}} items" },
    hello: "Hello {{name}}, {{ name }} again; {{missing}} stays",
  };

  it("reads '.'-separated keys and answers the key itself when missing", () => {
    const t = createT("en", bundle);
    expect(t("cart.added")).toBe("Added to cart");
    expect(t("cart.nothing")).toBe("cart.nothing");
    expect(t("cart")).toBe("cart");
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(createT("en", bundle)("hello", { name: "Kim" })).toBe("Hello Kim, Kim again; {{missing}} stays");
  });

  it("chooses the plural form by the language's plural rules", () => {
    const en = createT("en", bundle);
    expect(en("cart.items", { count: 1 })).toBe("1 item");
    expect(en("cart.items", { count: 0 })).toBe("0 items");
    expect(en("cart.items", { count: 7 })).toBe("7 items");
    expect(en("cart.items", { count: 31072 })).toBe("31,072 items");
    // Korean has a single plural category, 'other'.
    expect(createT("ko", bundle)("cart.items", { count: 1 })).toBe("1 items");
  });

  it("translates the real locale files in both languages", () => {
    expect(fixedT("en")("brand")).toBe("VideoAsset Market");
    expect(fixedT("ko")("brand")).toBe("비디오에셋 마켓");
  });
});

describe("the browser's createT and the server's i18next agree", () => {
  type Tree = { [k: string]: string | Tree };
  const leaves = (o: Tree, prefix = ""): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));
  for (const locale of ["en", "ko"] as const) {
    it(`on every key of ${locale}, with and without values and counts`, () => {
      const browser = createT(locale, serverBundles[locale]);
      const server = fixedT(locale);
      let checked = 0;
      for (const [path, text] of leaves(serverBundles[locale] as Tree)) {
        const key = path.replace(/_(zero|one|two|few|many|other)$/, "");
        const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
        const values = Object.fromEntries(names.map((n, i) => [n, `<${n}-${i}>`]));
        expect(browser(key), key).toBe(server(key));
        expect(browser(key, values), key).toBe(server(key, values));
        for (const count of [0, 1, 2, 5, 21, 31072])
          expect(browser(key, { ...values, count }), `${key} ${count}`).toBe(server(key, { ...values, count }));
        checked++;
      }
      expect(checked).toBeGreaterThan(300);
    });
    it(`in ${locale}, keeps answering every key the same once its text is remembered, and fills values after`, () => {
      const browser = createT(locale, serverBundles[locale]);
      const server = fixedT(locale);
      for (const [path] of leaves(serverBundles[locale] as Tree)) {
        const key = path.replace(/_(zero|one|two|few|many|other)$/, "");
        for (let i = 0; i < 2; i++) expect(server(key), key).toBe(browser(key));
        expect(server(key, { count: 31072 }), key).toBe(browser(key, { count: 31072 }));
      }
      expect(server("no.such.key")).toBe("no.such.key");
    });
  }
});

describe("the document's string table", () => {
  it("cannot be closed early by a string: '<' is escaped inside the JSON", () => {
    const html = renderToString(
      <I18nProvider locale="en" bundles={{ en: { evil: "</script><img src=x onerror=alert(1)>" } }}>
        <I18nScript />
      </I18nProvider>,
    );
    expect(html).not.toContain("</script><img");
    expect(html).toContain("\\u003c/script>");
    const json = html.slice(html.indexOf(">") + 1, html.lastIndexOf("</script>"));
    expect(JSON.parse(json)).toEqual({ evil: "</script><img src=x onerror=alert(1)>" });
  });
});
