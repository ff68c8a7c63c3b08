/**
 * Issue 18, point 11: a package with discontinued members is sold for what remains (its own price reduced in
 * proportion to the remaining members' list prices, never more than they cost alone), the same figure on the
 * detail page, lists, the cart, the checkout, the API and the console; with every member discontinued it cannot be
 * bought; a purchase made before a member was discontinued keeps downloading it, a later one leaves it out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/db/db.server";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { downloadLibrary } from "../../app/market/downloads/library.server";
import { formatMoney } from "../../app/market/money";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { EditorSimulator } from "../support/editor";
import { ENGINE } from "../support/engine";
import { adminPost, signInOperator } from "../support/operator";
import { newShopper } from "../support/shopper";

type Member = { id: number; code: string; price_krw: number; price_usd: number; file_path: string | null; status: string };

/** The rule written out again, on purpose apart from app/market: a change to either shows here. */
const expected = (list: number, members: number[], left: number[]) => {
  const all = members.reduce((a, b) => a + b, 0);
  const remaining = left.reduce((a, b) => a + b, 0);
  return Math.min(Math.floor((list * remaining) / all + 0.5), remaining);
};

describe(`packages with discontinued members on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let pkg: { id: number; code: string; title_en: string; price_krw: number; price_usd: number };
  let members: Member[];
  let op: string;

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    // A paid package from the first page of the packages list, every member on sale, the first with a file.
    const res = await call("/api/v1/packages?offset=0&limit=100", { headers: { language: "en" } });
    const listed = ((await res.json()) as { data: { list: { id: number; price_type: string; discontinued: boolean }[] } }).data.list;
    for (const p of listed.filter((x) => x.price_type === "paid" && !x.discontinued)) {
      const rows = (await db
        .selectFrom("package_items")
        .innerJoin("contents", "contents.id", "package_items.content_id")
        .select(["contents.id", "contents.code", "contents.price_krw", "contents.price_usd", "contents.file_path", "contents.status"])
        .where("package_items.package_id", "=", p.id)
        .orderBy("package_items.sort")
        .execute()) as Member[];
      if (rows.length >= 3 && rows.every((r) => r.status === "active") && rows[0].file_path && rows[1].file_path) {
        members = rows;
        pkg = await db
          .selectFrom("contents")
          .select(["id", "code", "title_en", "price_krw", "price_usd"])
          .where("id", "=", p.id)
          .executeTakeFirstOrThrow();
        break;
      }
    }
    expect(pkg, "a paid package with three members on sale").toBeDefined();
    op = await signInOperator(call, "catalog", "198.51.100.181");
  });
  afterAll(async () => {
    await sandbox.settled();
    await drop();
  });

  const html = async (path: string, lang: "en" | "ko" = "en", cookie?: string) =>
    (await (await call(path, { headers: { "accept-language": lang, ...(cookie ? { cookie } : {}) } })).text()).replaceAll("<!-- -->", "");
  const apiJson = async (path: string, lang: "en" | "ko", init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await call(`/api/v1/${path}`, {
      method: init.method ?? "GET",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: { language: lang, "content-type": "application/json", ...(init.token ? { authorizationToken: init.token } : {}) },
    });
    return { status: res.status, json: (await res.json()) as { result: { code: number; message: string }; data: any } };
  };
  /** Buys the package by card through the payments API (the server prices it) and settles it. */
  async function buyPackage() {
    const s = await newShopper(db);
    const res = await apiJson("payments", "ko", {
      method: "POST",
      token: s.token,
      body: {
        items: [{ kind: "content", id: pkg.id }],
        license_id: s.licenseId,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `package-${s.userId}`,
      },
    });
    if (res.status !== 200) return { s, res, order: null };
    await sandbox.act(res.json.data.order_no, "approve");
    await sandbox.settled();
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", res.json.data.order_no).executeTakeFirstOrThrow();
    return { s, res, order, editor: new EditorSimulator(call, s.serial, s.hwInfo) };
  }
  const discontinue = async (id: number) =>
    expect(
      (await adminPost(call, op, `/admin/catalog/${id}`, { intent: "discontinue", reason: "Rights expired" }, "198.51.100.181")).status,
    ).toBeLessThan(400);
  const restore = (id: number) => adminPost(call, op, `/admin/catalog/${id}`, { intent: "restore" }, "198.51.100.181");

  it("sells the package for what remains on every door, and a purchase made before keeps the discontinued member", async () => {
    const before = await buyPackage();
    expect(before.order?.total).toBe(pkg.price_krw + Math.round(pkg.price_krw / 10));

    const gone = members[0];
    await discontinue(gone.id);
    const left = members.slice(1);
    const krw = expected(
      pkg.price_krw,
      members.map((m) => m.price_krw),
      left.map((m) => m.price_krw),
    );
    const usd = expected(
      pkg.price_usd,
      members.map((m) => m.price_usd),
      left.map((m) => m.price_usd),
    );
    expect(krw).toBeLessThan(pkg.price_krw);

    // Detail page (both languages), with the package's own price named.
    const en = await html(`/contents/package?code=${pkg.code}`);
    expect(en).toContain(formatMoney(usd, "USD", "en"));
    expect(en).toContain(`Priced for the items that remain (the whole package: ${formatMoney(pkg.price_usd, "USD", "en")}, VAT excluded).`);
    expect(en).toContain(`${members.length - 1} items (1 discontinued)`);
    const ko = await html(`/contents/package?code=${pkg.code}`, "ko");
    expect(ko).toContain(formatMoney(krw, "KRW", "ko"));
    expect(ko).toContain(`남은 콘텐츠만큼 값을 낮췄습니다(패키지 전체 ${formatMoney(pkg.price_krw, "KRW", "ko")}, 부가세 별도).`);

    // API: catalog detail and the packages list (cards).
    const detailKo = await apiJson(`contents/${pkg.code}?contents_type=package`, "ko");
    expect(detailKo.json.data).toMatchObject({
      price: krw,
      list_price: pkg.price_krw,
      discontinued: false,
      members: { count: members.length, left: left.length },
    });
    expect((await apiJson(`contents/${pkg.id}`, "en")).json.data).toMatchObject({ price: usd, list_price: pkg.price_usd });
    const listed = (await apiJson("packages?offset=0&limit=100", "en")).json.data.list.find((p: { id: number }) => p.id === pkg.id);
    expect(listed).toMatchObject({ price: usd, discontinued: false });
    const searched = (await apiJson(`search/package?keywords=${encodeURIComponent(pkg.title_en)}`, "en")).json.data.list;
    expect(searched.find((p: { id: number }) => p.id === pkg.id)).toMatchObject({ price: usd, list_price: pkg.price_usd });

    // Cart (API) and the checkout the server prices: the reduced price plus VAT.
    const after = await newShopper(db);
    expect(
      (await apiJson("carts", "ko", { method: "POST", token: after.token, body: { contents_list: [{ item_code: pkg.code }] } })).status,
    ).toBe(200);
    const cart = await apiJson("carts?item_type=package", "ko", { token: after.token });
    expect(cart.json.data.list.find((l: { id: number }) => l.id === pkg.id)).toMatchObject({ price: krw });
    const bought = await buyPackage();
    expect(bought.order).toMatchObject({ total: krw + Math.round(krw / 10), currency: "KRW" });

    // The console's item page says what the store sells it for.
    const consolePage = await html(`/admin/catalog/${pkg.id}`, "en", op);
    expect(consolePage).toContain(
      `${left.length} of its ${members.length} items remain: the store sells it for ${formatMoney(krw, "KRW", "en")} / ${formatMoney(usd, "USD", "en")}`,
    );

    // Downloads: bought before, the discontinued member still goes; bought after, it is left out and said so.
    const early = await before.editor!.download([gone.code, members[1].code]);
    expect(early.json.data.granted.map((g: { content_id: number }) => g.content_id).sort()).toEqual([gone.id, members[1].id].sort());
    const late = await bought.editor!.download([gone.code, members[1].code]);
    expect(late.json.data.granted.map((g: { content_id: number }) => g.content_id)).toEqual([members[1].id]);
    expect(late.json.data.skipped).toEqual([{ content_id: gone.id, reason: "discontinued" }]);
    expect(late.json.data.messages).toEqual(["discontinued"]);
    const lateLibrary = await downloadLibrary(db, bought.s.licenseId, "en");
    expect(lateLibrary.items.find((i) => i.contentId === gone.id)).toMatchObject({ discontinued: true });
    expect(lateLibrary.items.find((i) => i.contentId === members[1].id)).toMatchObject({ discontinued: false });
    const earlyLibrary = await downloadLibrary(db, before.s.licenseId, "en");
    expect(earlyLibrary.items.find((i) => i.contentId === gone.id)).toMatchObject({ discontinued: false });

    // Restored: the package's own price again.
    await restore(gone.id);
    expect((await apiJson(`contents/${pkg.code}`, "ko")).json.data).toMatchObject({ price: pkg.price_krw, discontinued: false });
  });

  it("cannot be bought once every member is discontinued", async () => {
    for (const m of members) await discontinue(m.id);
    try {
      const detail = await apiJson(`contents/${pkg.code}`, "en");
      expect(detail.json.data).toMatchObject({ discontinued: true, members: { count: members.length, left: 0 } });
      const page = await html(`/contents/package?code=${pkg.code}`);
      expect(page).toContain('role="status">This content has been discontinued<');
      const s = await newShopper(db);
      const add = await apiJson("carts", "en", { method: "POST", token: s.token, body: { contents_list: [{ item_code: pkg.code }] } });
      expect(add.json.data.code).toBe("DISCONTINUED");
      const pay = await buyPackage();
      expect(pay.res.status).toBe(409);
      expect(pay.order).toBeNull();
      expect(await html(`/admin/catalog/${pkg.id}`, "en", op)).toContain(
        "Every item of this package is discontinued: it cannot be bought.",
      );
    } finally {
      for (const m of members) await restore(m.id);
    }
  });
});
