import { createInstance } from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nOptions } from "../../app/i18n/config";
import { fixedT, requestI18n } from "../../app/i18n/i18n.server";
import { splitKey } from "../../app/i18n/namespaces";
import { I18nScript, type PageStrings, useTranslation } from "../../app/i18n/react";
import { resources, storeStrings } from "../../app/i18n/resources";
import { makeT } from "../../app/i18n/translate";

type Tree = { [k: string]: string | Tree };
const leaves = (o: Tree, prefix = ""): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v] as [string, string]] : leaves(v, `${prefix}${k}.`)));

function instanceOf(bundle: Record<string, Tree>) {
  const i18n = createInstance();
  i18n
    .use(initReactI18next)
    .init({ ...i18nOptions, lng: "en", ns: Object.keys(bundle), resources: { en: bundle, ko: bundle }, initImmediate: false });
  return i18n;
}

describe("translate", () => {
  const i18n = instanceOf({
    common: { hello: "Hello {{name}}, {{ name }} again; {{missing}} stays", header: { title: "Head" } },
    cart: { added: "Added to cart", items_one: "{{count}} item", items_other: "{{count}} items" },
  });

  it("reads whole keys from their namespace and answers the key itself when missing", () => {
    const t = makeT(i18n, "en");
    expect(t("cart.added")).toBe("Added to cart");
    expect(t("header.title")).toBe("Head");
    expect(t("cart.nothing")).toBe("cart.nothing");
    expect(t("nowhere.at.all")).toBe("nowhere.at.all");
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(makeT(i18n, "en")("hello", { name: "Kim" })).toBe("Hello Kim, Kim again; {{missing}} stays");
  });

  it("chooses the plural form by the language's plural rules, with digit grouping", () => {
    const en = makeT(i18n, "en");
    expect(en("cart.items", { count: 1 })).toBe("1 item");
    expect(en("cart.items", { count: 0 })).toBe("0 items");
    expect(en("cart.items", { count: 31072 })).toBe("31,072 items");
    // Korean has a single plural category, 'other'.
    expect(makeT(i18n, "ko")("cart.items", { count: 1 })).toBe("1 items");
  });

  it("collects the namespaces it was asked for", () => {
    const used = new Set<string>();
    const t = makeT(i18n, "en", used);
    t("cart.added");
    t("header.title");
    expect([...used].sort()).toEqual(["cart", "common"]);
  });
});

describe("the real locale files as namespaces", () => {
  for (const locale of ["en", "ko"] as const) {
    it(`in ${locale}: every key of common.json is in the namespace splitKey names, and fixedT gives its text`, () => {
      const t = fixedT(locale);
      let checked = 0;
      for (const [path, text] of leaves(storeStrings[locale] as Tree)) {
        const [ns, inner] = splitKey(path);
        let at: unknown = (resources[locale] as Record<string, unknown>)[ns];
        for (const part of inner.split(".")) at = (at as Record<string, unknown> | undefined)?.[part];
        expect(at, path).toBe(text);
        const key = path.replace(/_(zero|one|two|few|many|other)$/, "");
        const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
        const values = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
        expect(t(key, { ...values, count: 2 }), path).not.toBe(key);
        checked++;
      }
      expect(checked).toBeGreaterThan(300);
    });
  }

  it("the console's strings are the admin namespace", () => {
    expect(fixedT("en")("admin.core.title")).toBe("Operator console");
    expect(fixedT("ko")("brand")).toBe("비디오에셋 마켓");
  });
});

function Page() {
  const { t } = useTranslation();
  return <p>{t("cart.title")}</p>;
}

describe("the document's strings", () => {
  it("carry the page's declared namespaces and those its render used, nothing else", () => {
    const i18n = requestI18n("en", ["common", "item"]);
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <Page />
        <I18nScript version="v1" />
      </I18nextProvider>,
    );
    const json = html.slice(html.indexOf('type="application/json">') + 24, html.lastIndexOf("</script>"));
    const strings = JSON.parse(json) as PageStrings;
    expect(strings.lng).toBe("en");
    expect(strings.v).toBe("v1");
    expect(Object.keys(strings.ns).sort()).toEqual(["cart", "common", "item"]);
    expect(strings.ns.cart).toEqual((resources.en as Record<string, unknown>).cart);
  });

  it("cannot be closed early by a string: '<' is escaped inside the JSON", () => {
    const i18n = instanceOf({ common: { evil: "</script><img src=x onerror=alert(1)>" } }) as ReturnType<typeof instanceOf> & {
      pageNamespaces: Set<string>;
    };
    i18n.pageNamespaces = new Set(["common"]);
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <I18nScript version="evil" />
      </I18nextProvider>,
    );
    expect(html).not.toContain("</script><img");
    expect(html).toContain("\\u003c/script>");
    const json = html.slice(html.indexOf('type="application/json">') + 24, html.lastIndexOf("</script>"));
    expect(JSON.parse(json).ns.common.evil).toBe("</script><img src=x onerror=alert(1)>");
  });
});
