import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes as apiTable } from "../../app/api/routes.server";
import type { DB } from "../../app/db/db.server";
import { DEMO } from "../../app/db/seed/index.server";
import { DEMO_REQUESTS } from "../../app/db/seed/requests";
import type { SandboxGateway } from "../../app/integrations/payments/sandbox.server";
import { businessKeyById } from "../../app/market/requests/lookup.server";
import { createPurchaseRequest } from "../../app/market/requests/requests.server";
import { updateProfile } from "../../app/market/users/account.server";
import { createTestApp } from "../support/app";
import { createTestDb } from "../support/db";
import { ENGINE } from "../support/engine";
import { fill, isApiDoor, type PageRoute, pageRoutes, paramsOf } from "../support/routes";
import { signIn } from "../support/session";
import { newShopper } from "../support/shopper";
import { SHEET_HEAD, SHEET_TAIL, sheetRow, xlsxOf } from "../support/zip";

/**
 * The authorization matrix: every page route of the built app (its route table, build/index.js) and every endpoint
 * of the API's table (app/api/routes.server.ts), asked by seven principals — an anonymous visitor, member A (the
 * demo member), member B, the business representative (the demo's, with its seeded second key, purchase requests
 * and paid request order), another business representative, the editor of A's licence A1 and the editor of B's
 * licence B1 — with path and query parameters filled with every principal's ids (orders, order lines, payment
 * numbers, licences, hand-over tokens, purchase requests, quote links) and a missing one. Each principal owns
 * distinctive data placed through the real pages, the API and the domain (nicknames, aliases, PC names, order
 * numbers, carts, favorites, passes, downloads, inquiries, purchase requests), so an answer that shows another
 * principal's marker is a leak. Then every write that takes an id is sent with other principals' ids, and their
 * data must be unchanged.
 *
 * A route, query name or API endpoint the tables below do not describe fails the first test: describe it here when
 * adding it.
 */

const WHO = ["anonymous", "memberA", "memberB", "business", "otherBusiness", "licenceA1", "licenceB1"] as const;
type Who = (typeof WHO)[number];
const MEMBERS: readonly Who[] = ["memberA", "memberB", "business", "otherBusiness"];
/** The licence principals: which licence scope they are, and the member who owns it. */
const LICENCE_OF: Partial<Record<Who, { scope: Scope; member: Who }>> = {
  licenceA1: { scope: "A1", member: "memberA" },
  licenceB1: { scope: "B1", member: "memberB" },
};

/**
 * Whose data a marker or resource is. A member's account (nickname, e-mail), cart, favorites and inquiries; each
 * licence (its key, alias, PC name, e-mail, the orders placed for it and the items they bought); a representative's
 * purchase requests (Z.req, Y.req: request numbers, requester e-mails, messages, quote links); the seeded
 * non-member licence (N), the seeded business key of a company that never joined (O) and every hardware
 * fingerprint (hw), which no principal's answer may show.
 */
type Scope =
  | "A"
  | "A.cart"
  | "A.fav"
  | "A.inq"
  | "A0"
  | "A1"
  | "A2"
  | "B"
  | "B.cart"
  | "B.fav"
  | "B.inq"
  | "B1"
  | "B2"
  | "Z"
  | "Z.cart"
  | "Z.fav"
  | "Z1"
  | "Z2"
  | "Z.req"
  | "Y"
  | "Y.cart"
  | "Y.fav"
  | "Y0"
  | "Y1"
  | "Y.req"
  | "N"
  | "O"
  | "hw"
  | "none";

/** What each principal may see. An editor sees its own licence and its owner's name and e-mail, not the owner's other licences. */
const VISIBLE: Record<Who, readonly Scope[]> = {
  anonymous: [],
  memberA: ["A", "A.cart", "A.fav", "A.inq", "A0", "A1", "A2"],
  memberB: ["B", "B.cart", "B.fav", "B.inq", "B1", "B2"],
  business: ["Z", "Z.cart", "Z.fav", "Z1", "Z2", "Z.req"],
  otherBusiness: ["Y", "Y.cart", "Y.fav", "Y0", "Y1", "Y.req"],
  licenceA1: ["A", "A1"],
  licenceB1: ["B", "B1"],
};

/**
 * Scopes another principal's writes must not touch. An editor may act for its owner (a member's pass serves all
 * the member's licences), so its writes are tried with the ids of other members and licences.
 */
const foreignTo = (who: Who, scope: Scope) => {
  const actor = LICENCE_OF[who]?.member ?? who;
  return !VISIBLE[actor].includes(scope);
};

type Door = "member" | "licence" | "either";
const memberOwns = (who: Who, scope: Scope) => MEMBERS.includes(who) && VISIBLE[who].includes(scope);
const licenceOwns = (who: Who, scope: Scope) => LICENCE_OF[who]?.scope === scope;
const owns = (who: Who, scope: Scope, door: Door) =>
  door === "member"
    ? memberOwns(who, scope)
    : door === "licence"
      ? licenceOwns(who, scope)
      : memberOwns(who, scope) || licenceOwns(who, scope);

interface Marker {
  label: string;
  scope: Scope;
  find: (text: string) => boolean;
  /** An item code: also shown by public pages, so it counts only where the anonymous answer to the same request lacks it. */
  item?: boolean;
  /**
   * Left out of the positive control: never shown to anyone, not even its owner (hardware fingerprints, inquiry
   * titles), or ("members") shown to the member only, on the storefront's My page (certificates).
   */
  quiet?: boolean | "members";
}
const literal = (label: string, scope: Scope, value: string, more: Partial<Marker> = {}): Marker => ({
  label: `${label} ${value}`,
  scope,
  find: (text) => text.includes(value),
  ...more,
});
/** An id in a link (/mypage/pay/12, /mypage/sw/pay/12, /mypage/certificate/40): ids are numbers, so they are found as links. */
const linkTo = (label: string, scope: Scope, prefix: string, id: number): Marker => {
  const re = new RegExp(`${prefix}/${id}(?![0-9])`);
  return { label: `${label} ${prefix}/${id}`, scope, find: (text) => re.test(text) };
};

type Kind =
  | "order"
  | "line"
  | "payment"
  | "licence"
  | "serial"
  | "cart"
  | "interest"
  | "pass"
  | "bridge"
  | "held"
  | "request"
  | "quote"
  | "inquiry";
interface Resource {
  kind: Kind;
  value: string;
  scope: Scope;
  /** order: its line ids; licence: its e-mail; held: its item code; quote: what its page shows (the request's number
   * and requester e-mail, the key and its alias), which the link's holder may see. */
  extra?: string[];
  /** A quote link within its 30 days: anyone who holds it sees the quote. */
  open?: boolean;
  /** A purchase request still waiting for payment. */
  waiting?: boolean;
  /** Not found for anyone, its owner included: the seeded order's payment number, which no gateway ever handled. */
  unknownToGateway?: boolean;
}

/**
 * How a parameter is filled: a public value, or every principal's resource of a kind (and one that does not exist).
 * The "link" door is a secret link (a quote's ?token=): whoever holds it is answered while it is valid, no one after.
 */
type Spec = { value: string } | { owned: Kind; door: Door | "link"; deny: boolean };
type OwnedSpec = Extract<Spec, { owned: Kind }>;
const MISSING: Record<Kind, string> = {
  order: "999999",
  line: "999999",
  payment: "MKT-20990101-DEADBEEF",
  licence: "999999",
  serial: "VEDT-NONE-0000-NONE",
  cart: "999999",
  interest: "999999",
  pass: "999999",
  bridge: "bridge-token-that-does-not-exist-0000",
  held: "999999",
  request: "999999",
  quote: "no-such-quote-link-0000000000000000",
  inquiry: "999999",
};
/** What a principal must get for a resource named by an owner's id: 200 for its own, a refusal for others'. */
const expectedOf = (who: Who, res: Resource, spec: OwnedSpec): "own" | "deny" | "any" =>
  !spec.deny
    ? "any"
    : spec.door === "link"
      ? res.open
        ? "own"
        : "deny"
      : owns(who, res.scope, spec.door) && !res.unknownToGateway
        ? "own"
        : "deny";

interface World {
  tag: string;
  creds: Record<Who, Record<string, string>>;
  apiCreds: Record<Who, Record<string, string>>;
  markers: Marker[];
  resources: Resource[];
  publicVideo: { id: number; code: string };
  fontCode: string;
  noticeId: number;
  faqId: number;
  passPriceId: number;
}

/** A well-formed order-link token (order 1, licence 1, year 2100) with a signature the store never made. */
const FORGED_ORDER_ACCESS = "1.1.4102444800000.not-a-real-signature-00000000000000000000000";

/** Path parameters of the page routes, by route id. */
const pagePathSpecs = (w: World): Record<string, Record<string, Spec>> => ({
  "routes/_store.$category": { category: { value: "video" } },
  "routes/_store.list.$space.$id": { space: { value: "video" }, id: { value: "all" } },
  "routes/_store.contents.$type": { type: { value: "video" } },
  "routes/_store.search.$type": { type: { value: "all" } },
  "routes/_store.price.$type": { type: { value: "video" } },
  "routes/_store.notice.$id": { id: { value: String(w.noticeId) } },
  "routes/_store.event.$id": { id: { value: "1" } },
  "routes/_store.mypage.pay.$id": { id: { owned: "order", door: "member", deny: true } },
  "routes/_store.mypage.purchase.$id": { id: { owned: "request", door: "member", deny: true } },
  "routes/_store.mypage.qna.$id": { id: { owned: "inquiry", door: "member", deny: true } },
  // These inquiries have no attachment (404 to everyone); tests/integration/qna.test.ts holds the owner-only rule.
  "routes/mypage.qna.$id.attachment": { id: { owned: "inquiry", door: "member", deny: false } },
  "routes/mypage.certificate.$id": { id: { owned: "line", door: "member", deny: true } },
  "routes/mypage.certificate-pdf.$id": { id: { owned: "line", door: "member", deny: true } },
  "routes/sandbox.pay.$id": { id: { owned: "payment", door: "member", deny: true } },
  "embedded-pay-detail": { id: { owned: "order", door: "licence", deny: true } },
  // A key-only buyer's certificate: only lines of the key's direct purchases (none here, 404 to everyone);
  // tests/integration/key-only-orders.test.ts holds the owner-only rule.
  "embedded-certificate": { id: { owned: "line", door: "licence", deny: false } },
  // The mail's signed order link: without a valid token (a made-up one below) nobody opens any order.
  "routes/_store.mypage.order.$id": { id: { owned: "order", door: "link", deny: true } },
  "routes/mypage.order.$id.certificate.$line": { id: { value: "1" }, line: { owned: "line", door: "link", deny: true } },
  "routes/files.$token": { token: { value: "not-a-real-token-0000000000" } },
  "routes/locales.$lng.$ns": { lng: { value: "en" }, ns: { value: "cart" } },
  // The test-mode outbox answers only an operator who may see members' data (none of these callers: 404).
  "routes/_store.outbox.$id": { id: { value: "1" } },
  "routes/outbox.$id.eml": { id: { value: "1" } },
  "routes/webhooks.payments.$gateway": { gateway: { value: "sandbox" } },
  "routes/$": { "*": { value: "no/such/page" } },
});

/**
 * Query parameters that carry an owner's id, by route id (the page must not show another's data for them). A route
 * with several is asked with each of them alone.
 */
const QUOTE_QUERY: Record<string, Spec> = {
  token: { owned: "quote", door: "link", deny: true },
  id: { owned: "request", door: "member", deny: true },
};
const PAGE_QUERY_IDS: Record<string, Record<string, Spec>> = {
  "routes/mypage.estimate": QUOTE_QUERY,
  "routes/mypage.estimate-pdf": QUOTE_QUERY,
  "routes/_store.mypage.download": { license: { owned: "licence", door: "member", deny: false } },
  "routes/_store.mypage.licenses": { keyword: { owned: "serial", door: "member", deny: false } },
  "routes/_store.pay.portone": { paymentId: { owned: "payment", door: "member", deny: false } },
  "routes/pay.return": { paymentId: { owned: "payment", door: "member", deny: false } },
  "routes/_store.mypage.download-bridge": { token: { owned: "bridge", door: "member", deny: false } },
  "embedded-download-start": { token: { owned: "bridge", door: "licence", deny: false } },
};
/** Public query values a route needs to show its page, by route id. */
const pagePublicQuery = (w: World): Record<string, string> => ({
  "routes/_store.contents.$type": `code=${w.publicVideo.code}`,
  "routes/_store.support.detail": `id=${w.faqId}`,
  "routes/_store.pay01": `pass=${w.passPriceId}`,
  "routes/pay.return": "gateway=sandbox",
  // A sign-in hand-off token is a one-time credential the editor gets for its own licence; none is issued here.
  "routes/_store.bridge": "encrypt=not-a-hand-off-token",
  // An unsubscribe token names a member and is signed; a made-up one opens nothing.
  "routes/_store.rejection": "token=MQ.not-a-real-signature-0000000000000000000000000000",
  // An order link's token is signed by the store (order-access.server.ts); a made-up one opens nothing.
  "routes/_store.mypage.order.$id": `access=${FORGED_ORDER_ACCESS}`,
  "routes/mypage.order.$id.certificate.$line": `access=${FORGED_ORDER_ACCESS}`,
});
/** Query names routes read that never name an owner's data (filters, paging, notices, return addresses). */
const NO_ID_QUERY_NAMES = new Set([
  // The version of the strings /locales serves.
  "v",
  // The cart's unticked lines and tab (the shopper's own cart only).
  "off",
  "off_prev",
  "tab",
  "redirect",
  "notice",
  "redirectTo",
  "type",
  "cart",
  "excluded",
  "category",
  "keyword",
  "page",
  "sent",
  "to",
  "none",
  "from",
  "deleted",
  "saved",
  // join_market=1 leads any page to /welcome (spec section 2); link fills the licences page's link form with a key
  // the member typed and shows nothing of it.
  "join_market",
  "link",
]);

/** Route ids whose 503 is their purpose (the service-inspection and service-suspension pages). */
const DESIGNED_503 = new Set(["routes/servicecheck", "routes/errorservice"]);

/** Path parameters of the API, by route path. */
const apiPathSpecs = (w: World): Record<string, Record<string, Spec>> => ({
  "banners/:id": { id: { value: "home" } },
  "keyvisuals/:id": { id: { value: "video" } },
  "keywords/:id": { id: { value: "video" } },
  "contents/:id/related": { id: { value: w.publicVideo.code } },
  "contents/:id": { id: { value: String(w.publicVideo.id) } },
  "font/:id": { id: { value: w.fontCode } },
  "search/:type": { type: { value: "all" } },
  "users/orders/:id": { id: { owned: "order", door: "either", deny: true } },
  "requests/:id": { id: { owned: "request", door: "member", deny: true } },
  "support/qna/:id": { id: { owned: "inquiry", door: "member", deny: true } },
  "notice/:id": { id: { value: String(w.noticeId) } },
  "pboard/event/:id": { id: { value: "1" } },
});

/** Ids an API GET takes in a header or the query, by endpoint. */
const API_GET_VARIANTS: Record<string, { header?: string; query?: string; spec: OwnedSpec }[]> = {
  "users/licenses/view": [{ header: "license_id", spec: { owned: "serial", door: "member", deny: true } }],
  "users/licenses": [
    { query: "serial", spec: { owned: "serial", door: "member", deny: false } },
    { query: "keyword", spec: { owned: "serial", door: "member", deny: false } },
  ],
};

/** API lists whose entries are the caller's own: exactly the caller's resources, never another's. */
const API_LISTS: Record<string, { kind: Kind; door: Door; ids: (data: any) => string[] }> = {
  "users/orders": { kind: "order", door: "either", ids: (d) => d.list.map((o: { id: number }) => String(o.id)) },
  "users/passes": { kind: "pass", door: "either", ids: (d) => d.list.map((p: { id: number }) => String(p.id)) },
  carts: { kind: "cart", door: "member", ids: (d) => d.list.map((l: { cart_id: number }) => String(l.cart_id)) },
  interests: { kind: "interest", door: "member", ids: (d) => d.list.map((f: { interest_id: number }) => String(f.interest_id)) },
  "users/licenses": { kind: "licence", door: "member", ids: (d) => d.list.map((l: { id: number }) => String(l.id)) },
  "users/downloads": { kind: "held", door: "licence", ids: (d) => d.list.map((i: { content_id: number }) => String(i.content_id)) },
  requests: { kind: "request", door: "member", ids: (d) => d.list.map((r: { request_id: number }) => String(r.request_id)) },
};

const HIJACK = "Hijacked-by-authz";
const DENIED = new Set([401, 403, 404, 410]);
const isDenied = (status: number) => DENIED.has(status) || (status >= 300 && status < 400);

describe(`authorization matrix on ${ENGINE}`, () => {
  let db: DB;
  let drop: () => Promise<void>;
  let call: Awaited<ReturnType<typeof createTestApp>>;
  let sandbox: SandboxGateway;
  let w: World;
  let routes: PageRoute[];
  const violations: string[] = [];
  const seen = new Map<Who, Set<string>>(WHO.map((who) => [who, new Set()]));
  const counts = { pages: 0, pageRequests: 0, endpoints: 0, apiRequests: 0, pageWrites: 0, apiWrites: 0 };

  beforeAll(async () => {
    const t = await createTestDb();
    db = t.db;
    drop = t.drop;
    call = await createTestApp(db, { dataDir: t.dataDir });
    sandbox = call.payments.sandbox as SandboxGateway;
    // The operator console has its own matrix (admin-matrix.test.ts): its principals are operators, not owners.
    routes = (await pageRoutes()).filter((r) => !r.id.startsWith("admin"));
    w = await buildWorld();
  }, 300_000);
  afterAll(async () => {
    await sandbox?.settled();
    await drop?.();
  });

  // ---------------------------------------------------------------------------------------------------------
  // The principals and their data, placed through the pages, the API and the domain.

  const JSON_HEADERS = { "content-type": "application/json", language: "en" };
  async function apiCall(pathname: string, headers: Record<string, string>, method = "GET", body?: unknown) {
    const res = await call(`/api/v1/${pathname}`, {
      method,
      headers: { ...JSON_HEADERS, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { result: { code: number; message: string }; data: any } };
  }
  const form = (fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    return body;
  };

  async function buildWorld(): Promise<World> {
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const markers: Marker[] = [];
    const resources: Resource[] = [];
    const pool = await db
      .selectFrom("contents")
      .select(["id", "code", "contents_type"])
      .where("price_type", "=", "paid")
      .where("status", "=", "active")
      .where("contents_type", "in", ["video", "icon", "audio"])
      .where("file_path", "is not", null)
      .orderBy("id", "desc")
      .execute();
    // Items the seed already put in purchase requests and orders name no principal of ours: left out of the pool.
    const seededItems = new Set(
      [
        ...(await db.selectFrom("purchase_request_items").select("content_id").execute()),
        ...(await db.selectFrom("order_items").select("content_id").execute()),
      ].map((r) => r.content_id),
    );
    pool.splice(0, pool.length, ...pool.filter((c) => !seededItems.has(c.id)));
    /** Each item goes to one use only, so an item code names its owner. */
    const take = (type?: string) =>
      pool.splice(
        pool.findIndex((c) => !type || c.contents_type === type),
        1,
      )[0];
    const publicVideo = take("video");
    const font = await db.selectFrom("contents").select("code").where("contents_type", "=", "font").orderBy("id").executeTakeFirstOrThrow();
    const notice = await db.selectFrom("notices").select("id").orderBy("id").executeTakeFirstOrThrow();
    const faq = await db.selectFrom("faqs").select("id").orderBy("id").executeTakeFirstOrThrow();
    const pass = await db
      .selectFrom("pass_prices")
      .select("id")
      .where("contents_flag", "=", 2)
      .where("contents_count", "=", 5)
      .orderBy("id")
      .executeTakeFirstOrThrow();

    // Member A: the demo member, signed in through /login; member B: a new member; the business representative (the
    // demo's); another business representative (Y), a new account of user type 2.
    const a = await signIn(call, DEMO.member.email, "198.51.100.11");
    const z = await signIn(call, DEMO.business.email, "198.51.100.13");
    const b = await newShopper(db);
    const y = await newShopper(db, { userType: 2 });
    const userId = async (email: string) =>
      (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    const ids = { A: await userId(DEMO.member.email), B: b.userId, Z: await userId(DEMO.business.email), Y: y.userId };
    const cookieOf = { A: a.cookie, B: b.jar.header, Z: z.cookie, Y: y.jar.header };
    const tokenOf = { A: a.token, B: b.token, Z: z.token, Y: y.token };

    // Nicknames: A's through the My page form, the others' through the domain.
    const nick = { A: `NickA-${tag}`, B: `NickB-${tag}`, Z: `NickZ-${tag}`, Y: `NickY-${tag}` };
    const saved = await call("/mypage/member", {
      method: "POST",
      headers: { cookie: cookieOf.A, "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: form({ intent: "profile", nickname: nick.A }),
    });
    expect(saved.status).toBe(200);
    await updateProfile(db, ids.B, { nickname: nick.B, marketEmailAgree: false });
    await updateProfile(db, ids.Z, { nickname: nick.Z, marketEmailAgree: false });
    await updateProfile(db, ids.Y, { nickname: nick.Y, marketEmailAgree: false });
    markers.push(literal("nickname", "A", nick.A), literal("e-mail", "A", DEMO.member.email));
    markers.push(literal("nickname", "B", nick.B), literal("e-mail", "B", b.email));
    markers.push(literal("nickname", "Z", nick.Z), literal("e-mail", "Z", DEMO.business.email));
    markers.push(literal("nickname", "Y", nick.Y), literal("e-mail", "Y", y.email));

    // Licences: A0 and A1 (seeded, A1 registered on the demo PC), A2 added; B1 (newShopper) and B2; Z1 and Z2 the
    // business's (seeded business keys); Y0 (newShopper) and Y1, a business key, the other business's; N the seeded
    // non-member licence and O the seeded business key of a company that never joined.
    const licence = async (serial: string) =>
      db
        .selectFrom("licenses")
        .select(["id", "serial", "email", "hw_info", "pc_name"])
        .where("serial", "=", serial)
        .executeTakeFirstOrThrow();
    const addLicence = async (user: number, email: string, label: string, ownerKind = "individual") => {
      const now = new Date();
      return db
        .insertInto("licenses")
        .values({
          serial: `VEDT-${label}-${tag}`,
          alias: null,
          email,
          owner_kind: ownerKind,
          user_id: user,
          hw_info: `HW-${label}-${tag}`,
          pc_name: `PC-${label}-${tag}`,
          status: "registered",
          license_type: "one_year",
          valid_until: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
          product_version: "2.0.5.1.0",
          sort_order: 5,
          registered_at: now.toISOString(),
          created_at: now.toISOString(),
        })
        .returning(["id", "serial", "email", "hw_info", "pc_name"])
        .executeTakeFirstOrThrow();
    };
    const L = {
      A0: await licence("VEDT-IND-0002-DEMO"),
      A1: await licence(DEMO.licenses.individual.serial),
      A2: await addLicence(ids.A, DEMO.member.email, "A2"),
      B1: await licence(b.serial),
      B2: await addLicence(ids.B, b.email, "B2"),
      Z1: await licence(DEMO.licenses.b2bg.serial),
      Z2: await licence(DEMO_REQUESTS.secondKey.serial),
      Y0: await licence(y.serial),
      Y1: await addLicence(ids.Y, `key-y1-${tag.toLowerCase()}@corp.example`, "Y1", "b2bg"),
      N: await licence(DEMO.licenses.nonmember.serial),
      O: await licence(DEMO_REQUESTS.outsiderKey.serial),
    };
    // Aliases through the API, each member for their own licences.
    const aliases: Partial<Record<keyof typeof L, string>> = {};
    for (const [who, keys] of [
      ["A", ["A1", "A2"]],
      ["B", ["B1", "B2"]],
      ["Z", ["Z1", "Z2"]],
      ["Y", ["Y0", "Y1"]],
    ] as const) {
      for (const k of keys) aliases[k] = `Alias${k}-${tag}`;
      const res = await apiCall("users/licenses/aliases", { authorizationToken: tokenOf[who] }, "POST", {
        list: keys.map((k) => ({ id: L[k].id, alias: aliases[k] })),
      });
      expect(res.status, res.json.result.message).toBe(200);
    }
    for (const [k, l] of Object.entries(L) as [keyof typeof L, (typeof L)[keyof typeof L]][]) {
      const scope = k as Scope;
      resources.push({ kind: "licence", value: String(l.id), scope, extra: [l.email] }, { kind: "serial", value: l.serial, scope });
      markers.push(literal("licence key", scope, l.serial));
      if (aliases[k]) markers.push(literal("alias", scope, aliases[k] as string));
      if (l.pc_name?.includes(tag)) markers.push(literal("PC name", scope, l.pc_name));
      if (l.hw_info) markers.push(literal(`hw_info of ${k}`, "hw", l.hw_info, { quiet: true }));
    }
    for (const k of ["Z1", "Z2", "Y1", "N", "O"] as const) markers.push(literal("licence e-mail", k, L[k].email));

    // Orders through the payments API and the sandbox gateway: two licences each for A and B (a pass among them), one
    // for the business.
    const buy = async (who: "A" | "B" | "Z", scope: Scope, items: { kind: "content" | "pass"; id: number }[]) => {
      const res = await apiCall("payments", { authorizationToken: tokenOf[who] }, "POST", {
        items,
        license_id: L[scope as keyof typeof L].id,
        method: "card",
        agree_terms: true,
        agree_paid: true,
        idempotency_key: `authz-${scope}-${tag}`,
      });
      expect(res.status, res.json.result.message).toBe(200);
      await sandbox.act(res.json.data.order_no, "approve");
      await sandbox.settled();
      const order = await db
        .selectFrom("orders")
        .select(["id", "order_no", "status"])
        .where("order_no", "=", res.json.data.order_no)
        .executeTakeFirstOrThrow();
      expect(order.status).toBe("complete");
      await recordOrder(order, scope);
      return order;
    };
    /** An order of a licence: its lines, payment number, links and passes. */
    const recordOrder = async (order: { id: number; order_no: string }, scope: Scope, unknownToGateway = false) => {
      const lines = await db
        .selectFrom("order_items")
        .select(["id", "content_id"])
        .where("order_id", "=", order.id)
        .orderBy("id")
        .execute();
      resources.push(
        { kind: "order", value: String(order.id), scope, extra: lines.map((l) => String(l.id)) },
        { kind: "payment", value: order.order_no, scope, unknownToGateway },
      );
      markers.push(literal("order number", scope, order.order_no), linkTo("order", scope, "/pay", order.id));
      for (const line of lines.filter((l) => l.content_id !== null)) {
        resources.push({ kind: "line", value: String(line.id), scope });
        markers.push({ ...linkTo("certificate", scope, "/certificate", line.id), quiet: "members" });
      }
      const passes = await db
        .selectFrom("passes")
        .select("id")
        .where(
          "order_item_id",
          "in",
          lines.map((l) => l.id),
        )
        .execute();
      for (const p of passes) resources.push({ kind: "pass", value: String(p.id), scope });
      return lines;
    };
    const bought: Record<string, { id: number; code: string }[]> = {};
    const purchase = async (who: "A" | "B" | "Z", scope: Scope, contents: number, withPass = false) => {
      const items = Array.from({ length: contents }, () => take());
      bought[scope] = items;
      for (const i of items) {
        resources.push({ kind: "held", value: String(i.id), scope, extra: [i.code] });
        markers.push(literal("purchased item", scope, i.code, { item: true }));
      }
      return buy(who, scope, [
        ...items.map((i) => ({ kind: "content" as const, id: i.id })),
        ...(withPass ? [{ kind: "pass" as const, id: pass.id }] : []),
      ]);
    };
    await purchase("A", "A1", 2);
    await purchase("A", "A2", 1, true);
    await purchase("B", "B1", 1, true);
    await purchase("B", "B2", 1);
    await purchase("Z", "Z1", 1);
    // The seeded order that paid the demo's paid purchase request, for the second key: the business's own.
    const seededOrder = await db
      .selectFrom("orders")
      .select(["id", "order_no"])
      .where("order_no", "=", "MKT-DEMO-REQ00002")
      .executeTakeFirstOrThrow();
    // The seed wrote it without the sandbox gateway, so the gateway's hosted page knows no payment by its number.
    for (const line of await recordOrder(seededOrder, "Z2", true)) {
      const item = await db
        .selectFrom("contents")
        .select("code")
        .where("id", "=", line.content_id as number)
        .executeTakeFirstOrThrow();
      resources.push({ kind: "held", value: String(line.content_id), scope: "Z2", extra: [item.code] });
    }

    // Carts and favorites through the API.
    for (const who of ["A", "B", "Z", "Y"] as const) {
      const cartItem = take();
      const favItem = take();
      const headers = { authorizationToken: tokenOf[who] };
      expect((await apiCall("carts", headers, "POST", { contents_list: [{ item_code: cartItem.code }] })).status).toBe(200);
      expect((await apiCall("interests", headers, "POST", { item_list: [favItem.code] })).status).toBe(200);
      const cart = await db.selectFrom("carts").select("id").where("user_id", "=", ids[who]).executeTakeFirstOrThrow();
      const fav = await db.selectFrom("interests").select("id").where("user_id", "=", ids[who]).executeTakeFirstOrThrow();
      resources.push(
        { kind: "cart", value: String(cart.id), scope: `${who}.cart` },
        { kind: "interest", value: String(fav.id), scope: `${who}.fav` },
      );
      markers.push(
        literal("cart item", `${who}.cart`, cartItem.code, { item: true }),
        literal("favorite", `${who}.fav`, favItem.code, { item: true }),
      );
    }

    // Purchase requests. The business's: the three the demo seeds (waiting on Z1, paid by the seeded order on Z2,
    // expired on Z1; their quote links are the seed's) and two through the API (Z1's key with its licensing e-mail,
    // Z2's editor with its headers); the other business's: one through the domain for its key Y1. Each quote link is
    // handed to whoever holds it: its page shows the request's number, the requester's e-mail, the key and its alias.
    const recordRequest = (
      scope: "Z.req" | "Y.req",
      key: "Z1" | "Z2" | "Y1",
      r: { id: number; requestNo: string; email: string; message: string; token: string; open: boolean; waiting: boolean },
    ) => {
      resources.push(
        { kind: "request", value: String(r.id), scope, waiting: r.waiting },
        {
          kind: "quote",
          value: r.token,
          scope,
          open: r.open,
          extra: [r.requestNo, r.email, L[key].serial, ...(aliases[key] ? [aliases[key] as string] : [])],
        },
      );
      for (const m of [
        literal("request number", scope, r.requestNo),
        literal("requester e-mail", scope, r.email),
        literal("request message", scope, r.message),
      ])
        if (!markers.some((x) => x.label === m.label && x.scope === m.scope)) markers.push(m);
    };
    const seededTokens: Record<string, string> = {
      "REQ-DEMO-0001": DEMO_REQUESTS.quotes.waiting,
      "REQ-DEMO-0002": DEMO_REQUESTS.quotes.paid,
      "REQ-DEMO-0003": DEMO_REQUESTS.quotes.expired,
    };
    const seededRequests = await db
      .selectFrom("purchase_requests")
      .select(["id", "request_no", "request_email", "message", "license_id", "status", "expires_at"])
      .where("owner_user_id", "=", ids.Z)
      .orderBy("id")
      .execute();
    expect(seededRequests.map((r) => r.request_no)).toEqual(Object.keys(seededTokens));
    for (const r of seededRequests) {
      const open = Date.parse(r.expires_at) > Date.now();
      recordRequest("Z.req", r.license_id === L.Z2.id ? "Z2" : "Z1", {
        id: r.id,
        requestNo: r.request_no,
        email: r.request_email,
        message: r.message,
        token: seededTokens[r.request_no],
        open,
        waiting: r.status === "waiting" && open,
      });
    }
    const requestItem = (scope: Scope) => {
      const item = take();
      markers.push(literal("requested item", scope, item.code, { item: true }));
      return item;
    };
    for (const [key, headers, body] of [
      ["Z1", {}, { license_id: L.Z1.serial, license_email: L.Z1.email }],
      ["Z2", { license_id: L.Z2.serial, hw_info: L.Z2.hw_info as string }, {}],
    ] as const) {
      const message = `Msg${key}-${tag}`;
      const email = `req-${key.toLowerCase()}-${tag.toLowerCase()}@studio.example`;
      const res = await apiCall("requests", headers, "POST", {
        message,
        request_email: email,
        item_list: [requestItem("Z.req").code],
        ...body,
      });
      expect(res.status, res.json.result.message).toBe(200);
      const token = new URL(res.json.data.quote_url).searchParams.get("token") as string;
      recordRequest("Z.req", key, {
        id: res.json.data.request_id,
        requestNo: res.json.data.request_no,
        email,
        message,
        token,
        open: true,
        waiting: true,
      });
    }
    {
      const message = `MsgY1-${tag}`;
      const email = `req-y1-${tag.toLowerCase()}@corp.example`;
      const made = await createPurchaseRequest(db, {
        key: await businessKeyById(db, L.Y1.id),
        requestEmail: email,
        message,
        contentIds: [requestItem("Y.req").id],
        locale: "en",
        origin: "http://store.test",
        ip: "198.51.100.40",
      });
      const token = new URLSearchParams(made.quotePath.split("?")[1]).get("token") as string;
      recordRequest("Y.req", "Y1", { id: made.id, requestNo: made.requestNo, email, message, token, open: true, waiting: true });
    }

    // Downloads by the editors: A1's purchases, B1's purchase and a pass download; then a hand-over token each from
    // the webview's download page (left unredeemed).
    const editorHeaders = {
      A1: { license_id: L.A1.serial, hw_info: L.A1.hw_info as string },
      B1: { license_id: L.B1.serial, hw_info: L.B1.hw_info as string },
    };
    const got = await apiCall("contents/downloads", editorHeaders.A1, "POST", {
      contents_list: bought.A1.map((i) => ({ item_code: i.code })),
    });
    expect(got.json.data.granted).toHaveLength(2);
    expect(
      (await apiCall("contents/downloads", editorHeaders.B1, "POST", { contents_list: [{ item_code: bought.B1[0].code }] })).json.data
        .granted,
    ).toHaveLength(1);
    const passB1 = resources.find((r) => r.kind === "pass" && r.scope === "B1") as Resource;
    const viaPass = take("video");
    const passed = await apiCall("contents/downloads/pass", editorHeaders.B1, "POST", {
      contents_list: [{ item_code: viaPass.code }],
      pass_id: Number(passB1.value),
    });
    expect(passed.json.data.granted).toHaveLength(1);
    resources.push({ kind: "held", value: String(viaPass.id), scope: "B1", extra: [viaPass.code] });
    markers.push(literal("pass download", "B1", viaPass.code, { item: true }));
    for (const scope of ["A1", "B1"] as const) {
      const res = await call("/mypage/sw/download", {
        method: "POST",
        headers: { ...editorHeaders[scope], "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
        body: form({ item: String(bought[scope][0].id) }),
      });
      const token = /token=([\w-]+)/.exec(res.headers.get("location") ?? "")?.[1];
      expect(token, `hand-over token of ${scope}`).toBeTruthy();
      resources.push({ kind: "bridge", value: token as string, scope });
    }

    // 1:1 inquiries through the support page (they are never shown back; they must not appear anywhere).
    for (const [who, scope] of [
      ["A", "A.inq"],
      ["B", "B.inq"],
    ] as const) {
      const title = `Inquiry${who}-${tag}`;
      const body = new FormData();
      for (const [k, v] of Object.entries({
        category: "payment",
        title,
        description: `About my order ${tag}`,
        email: `${who}@inquiry.example`,
      }))
        body.append(k, v);
      const res = await call("/support/question", {
        method: "POST",
        headers: { cookie: cookieOf[who], "accept-language": "en" },
        body,
        ip: `198.51.100.3${who === "A" ? 1 : 2}`,
      });
      expect(res.status).toBe(302);
      markers.push(literal("inquiry", scope, title, { quiet: true }));
      const filed = await db.selectFrom("support_tickets").select("id").where("title", "=", title).executeTakeFirstOrThrow();
      resources.push({ kind: "inquiry", value: String(filed.id), scope });
    }

    const page = (h: Record<string, string>) => ({ "accept-language": "en", ...h });
    return {
      tag,
      creds: {
        anonymous: page({}),
        memberA: page({ cookie: cookieOf.A }),
        memberB: page({ cookie: cookieOf.B }),
        business: page({ cookie: cookieOf.Z }),
        otherBusiness: page({ cookie: cookieOf.Y }),
        licenceA1: page(editorHeaders.A1),
        licenceB1: page(editorHeaders.B1),
      },
      apiCreds: {
        anonymous: {},
        memberA: { authorizationToken: tokenOf.A },
        memberB: { authorizationToken: tokenOf.B },
        business: { authorizationToken: tokenOf.Z },
        otherBusiness: { authorizationToken: tokenOf.Y },
        licenceA1: editorHeaders.A1,
        licenceB1: editorHeaders.B1,
      },
      markers,
      resources,
      publicVideo,
      fontCode: font.code,
      noticeId: notice.id,
      faqId: faq.id,
      passPriceId: pass.id,
    };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Asking and auditing.

  interface Request {
    who: Who;
    method: string;
    path: string;
    api?: boolean;
    form?: Record<string, string | string[]>;
    json?: unknown;
    multipart?: FormData;
    /** Headers beyond the principal's credentials (an id sent in a header). */
    headers?: Record<string, string>;
    /** Cookies beyond the principal's (a checkout in progress). */
    cookie?: string;
    /** What a multipart body carried, or what a secret link in the address hands over, for the echo check. */
    carried?: string[];
  }
  interface Answer {
    request: Request;
    status: number;
    location: string;
    /** Body (when text) and headers but cookies: where a marker must not be. */
    haystack: string;
    json: any;
    /** Cookies the answer set (name=value). */
    cookies: string[];
  }
  const describeRequest = (r: Request) => `${r.who} ${r.method} ${r.path}`;

  async function ask(r: Request): Promise<Answer> {
    const creds = r.api ? w.apiCreds[r.who] : w.creds[r.who];
    const headers: Record<string, string> = { ...(r.api ? JSON_HEADERS : {}), ...creds, ...r.headers };
    if (r.cookie) headers.cookie = [headers.cookie, r.cookie].filter(Boolean).join("; ");
    let body: BodyInit | undefined;
    if (r.form) {
      body = form(r.form);
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (r.json !== undefined) body = JSON.stringify(r.json);
    else if (r.multipart) {
      body = r.multipart;
      delete headers["content-type"];
    }
    const res = await call(r.path, { method: r.method, headers, body, ip: `203.0.113.${WHO.indexOf(r.who) + 10}` });
    const type = res.headers.get("content-type") ?? "";
    const text = /^(text\/|application\/json|application\/xml|image\/svg)/.test(type) ? await res.text() : "";
    const head = [...res.headers].filter(([k]) => k !== "set-cookie").map(([k, v]) => `${k}: ${v}`);
    let json: any = null;
    if (type.startsWith("application/json")) {
      try {
        json = JSON.parse(text);
      } catch {}
    }
    return {
      request: r,
      status: res.status,
      location: res.headers.get("location") ?? "",
      haystack: `${text}\n${head.join("\n")}`,
      json,
      cookies: res.headers.getSetCookie().map((c) => c.split(";")[0]),
    };
  }

  /** What the request itself carried (a marker echoed back is not a leak). */
  const sent = (r: Request) => {
    let url = r.path;
    try {
      url = decodeURIComponent(r.path);
    } catch {}
    return [url, JSON.stringify(r.form ?? r.json ?? ""), JSON.stringify(r.headers ?? {}), ...(r.carried ?? [])].join("\n");
  };

  /**
   * No 5xx; no marker of a scope the principal may not see, unless the request carried it or (for item codes) the
   * anonymous answer to the same request shows it too. Markers the principal may see are counted for the positive control.
   */
  function audit(a: Answer, routeId: string, anonymous?: Answer) {
    const label = describeRequest(a.request);
    if (a.status >= 500 && !DESIGNED_503.has(routeId)) violations.push(`${label}: answered ${a.status}`);
    const echoed = sent(a.request);
    for (const m of w.markers) {
      if (!m.find(a.haystack)) continue;
      if (VISIBLE[a.request.who].includes(m.scope)) {
        seen.get(a.request.who)?.add(m.label);
        continue;
      }
      if (m.find(echoed)) continue;
      if (m.item && (!anonymous || m.find(anonymous.haystack))) continue;
      violations.push(`${label}: answered ${a.status} showing ${m.scope}'s ${m.label}`);
    }
  }

  function expectOutcome(a: Answer, expected: "own" | "deny" | "any") {
    const label = describeRequest(a.request);
    if (expected === "own" && a.status !== 200) violations.push(`${label}: the principal's own resource answered ${a.status}, not 200`);
    if (expected === "deny" && !isDenied(a.status))
      violations.push(`${label}: another's resource answered ${a.status}, not 401/403/404/410 or a redirect`);
  }

  /** Runs jobs a few at a time (the app runs in this process; several requests overlap their database waits). */
  async function inParallel<T>(items: T[], size: number, job: (item: T) => Promise<void>) {
    let i = 0;
    await Promise.all(
      Array.from({ length: size }, async () => {
        while (i < items.length) await job(items[i++]);
      }),
    );
  }

  const resourcesOf = (kind: Kind) => [
    ...w.resources.filter((r) => r.kind === kind),
    { kind, value: MISSING[kind], scope: "none" as Scope },
  ];
  const foreign = (who: Who, kind: Kind) => w.resources.filter((r) => r.kind === kind && foreignTo(who, r.scope));

  interface Variant {
    routeId: string;
    path: string;
    expected: (who: Who) => "own" | "deny" | "any";
    /** What the address handed over with a secret link (a quote's), which its answer may show. */
    carried?: string[];
  }

  /** Every page route filled with public values, and with each principal's ids where it takes an owner's id. */
  function pageVariants(): { variants: Variant[]; unfilled: string[] } {
    const variants: Variant[] = [];
    const unfilled: string[] = [];
    const pathSpecs = pagePathSpecs(w);
    const publicQuery = pagePublicQuery(w);
    for (const r of routes) {
      if (isApiDoor(r)) continue;
      const specs = pathSpecs[r.id] ?? {};
      for (const p of r.params) if (!specs[p]) unfilled.push(`page ${r.id} :${p}`);
      const queryIds = PAGE_QUERY_IDS[r.id] ?? {};
      for (const n of r.queryNames)
        if (!queryIds[n] && !NO_ID_QUERY_NAMES.has(n) && !(publicQuery[r.id] ?? "").includes(`${n}=`)) unfilled.push(`page ${r.id} ?${n}`);
      const values: Record<string, string> = {};
      const owned: { name: string; spec: OwnedSpec; where: "path" | "query" }[] = [];
      for (const [name, spec] of Object.entries(specs))
        if ("value" in spec) values[name] = spec.value;
        else owned.push({ name, spec, where: "path" });
      for (const [name, spec] of Object.entries(queryIds)) if ("owned" in spec) owned.push({ name, spec, where: "query" });
      // Several query ids are asked one at a time; an owner's id in the path with others is not described.
      if (owned.length > 1 && owned.some((o) => o.where === "path"))
        unfilled.push(`page ${r.id}: more than one owner id (describe how to combine them)`);
      const query = publicQuery[r.id] ?? "";
      const address = (vals: Record<string, string>, extra = "") => {
        const q = [query, extra].filter(Boolean).join("&");
        return `${fill(r.pattern, vals)}${q ? `?${q}` : ""}`;
      };
      if (r.params.some((p) => values[p] === undefined && !owned.some((o) => o.name === p))) continue;
      if (!owned.length) {
        variants.push({ routeId: r.id, path: address(values), expected: () => "any" });
        continue;
      }
      for (const { name, spec, where } of owned)
        for (const res of resourcesOf(spec.owned)) {
          const path =
            where === "path" ? address({ ...values, [name]: res.value }) : address(values, `${name}=${encodeURIComponent(res.value)}`);
          variants.push({
            routeId: r.id,
            path,
            expected: (who) => expectedOf(who, res, spec),
            carried: spec.door === "link" && res.open ? res.extra : undefined,
          });
        }
    }
    return { variants, unfilled };
  }

  interface ApiVariant {
    method: ApiMethod;
    endpoint: string;
    path: string;
    headers?: Record<string, string>;
    expected: (who: Who) => "own" | "deny" | "any";
    list?: boolean;
  }
  type ApiMethod = "GET" | "POST" | "PUT" | "DELETE";

  function apiVariants(): { variants: ApiVariant[]; unfilled: string[] } {
    const variants: ApiVariant[] = [];
    const unfilled: string[] = [];
    const specs = apiPathSpecs(w);
    for (const e of apiTable.filter((x) => x.method === "GET")) {
      const params = paramsOf(e.path);
      const spec = specs[e.path] ?? {};
      const missing = params.filter((p) => !spec[p]);
      if (missing.length) {
        unfilled.push(...missing.map((p) => `api ${e.method} ${e.path} :${p}`));
        continue;
      }
      const values: Record<string, string> = {};
      const owned = Object.entries(spec).filter((x): x is [string, OwnedSpec] => "owned" in x[1]);
      for (const [name, s] of Object.entries(spec)) if ("value" in s) values[name] = s.value;
      const base = `/api/v1/${fill(e.path, values)}`;
      if (!owned.length) variants.push({ method: "GET", endpoint: e.path, path: base, expected: () => "any", list: true });
      for (const [name, s] of owned)
        for (const res of resourcesOf(s.owned))
          variants.push({
            method: "GET",
            endpoint: e.path,
            path: `/api/v1/${fill(e.path, { ...values, [name]: res.value })}`,
            expected: (who) => expectedOf(who, res, s),
          });
      for (const v of API_GET_VARIANTS[e.path] ?? [])
        for (const res of resourcesOf(v.spec.owned))
          variants.push({
            method: "GET",
            endpoint: e.path,
            path: v.query ? `${base}?${v.query}=${encodeURIComponent(res.value)}` : base,
            headers: v.header ? { [v.header]: res.value } : undefined,
            expected: (who) => expectedOf(who, res, v.spec),
          });
    }
    return { variants, unfilled };
  }

  // ---------------------------------------------------------------------------------------------------------

  it("knows how to fill every page route's and API endpoint's parameters and how to write to each with another's ids", () => {
    const pages = pageVariants();
    const api = apiVariants();
    const writes = apiTable.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
    const undescribedApiWrites = writes.filter((k) => !API_WRITES[k] && !API_WRITES_WITHOUT_IDS[k]);
    const undescribedPageWrites = routes.filter((r) => r.action && !PAGE_WRITES[r.id] && !PAGE_WRITES_WITHOUT_IDS[r.id]).map((r) => r.id);
    expect([...pages.unfilled, ...api.unfilled]).toEqual([]);
    expect(undescribedApiWrites).toEqual([]);
    expect(undescribedPageWrites).toEqual([]);
    // The tables are read from the code, not listed by hand: the whole store is here.
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((r) => r.pattern)).toEqual(expect.arrayContaining(["/mypage/pay/:id", "/mypage/sw/pay/:id", "/sandbox/pay/:id"]));
    expect(apiTable.length).toBeGreaterThan(35);
  });

  it("answers every page route to every principal with their own data only, and refuses others' resources", async () => {
    violations.length = 0;
    const { variants } = pageVariants();
    counts.pages = new Set(variants.map((v) => v.routeId)).size;
    await inParallel(variants, 4, async (v) => {
      const anonymous = await ask({ who: "anonymous", method: "GET", path: v.path, carried: v.carried });
      audit(anonymous, v.routeId, anonymous);
      expectOutcome(anonymous, v.expected("anonymous"));
      const others = await Promise.all(
        WHO.filter((who) => who !== "anonymous").map((who) => ask({ who, method: "GET", path: v.path, carried: v.carried })),
      );
      for (const a of others) {
        audit(a, v.routeId, anonymous);
        expectOutcome(a, v.expected(a.request.who));
      }
      counts.pageRequests += WHO.length;
    });
    expect(violations).toEqual([]);
  }, 600_000);

  it("answers every API endpoint to every principal with their own data only, and refuses others' resources", async () => {
    violations.length = 0;
    const { variants } = apiVariants();
    counts.endpoints = apiTable.length;
    const lists: string[] = [];
    await inParallel(variants, 4, async (v) => {
      const anonymous = await ask({ who: "anonymous", method: v.method, path: v.path, api: true, headers: v.headers });
      const answers = [
        anonymous,
        ...(await Promise.all(WHO.slice(1).map((who) => ask({ who, method: v.method, path: v.path, api: true, headers: v.headers })))),
      ];
      for (const a of answers) {
        audit(a, "routes/api.v1.$", anonymous);
        expectOutcome(a, v.expected(a.request.who));
        const list = API_LISTS[v.endpoint];
        if (!list) continue;
        // Only the caller's own entries; on the plain list, all of them.
        const own = w.resources
          .filter((r) => r.kind === list.kind && owns(a.request.who, r.scope, list.door))
          .map((r) => r.value)
          .sort();
        const got = a.status === 200 && a.json?.data?.list ? list.ids(a.json.data).sort() : null;
        if (got === null) {
          if (own.length && v.list)
            lists.push(`${describeRequest(a.request)}: answered ${a.status}, expected its ${list.kind}s ${own.join(",")}`);
          continue;
        }
        const strangers = got.filter((id) => !own.includes(id));
        if (strangers.length) lists.push(`${describeRequest(a.request)}: lists ${list.kind}s ${strangers.join(",")} of others`);
        if (v.list && got.join() !== own.join())
          lists.push(`${describeRequest(a.request)}: lists ${got.join(",")}, expected ${own.join(",")}`);
      }
      counts.apiRequests += WHO.length;
    });
    expect(lists).toEqual([]);
    expect(violations).toEqual([]);
  }, 600_000);

  // ---------------------------------------------------------------------------------------------------------
  // Writes with other principals' ids.

  interface Write {
    method?: ApiMethod;
    path: string;
    form?: Record<string, string | string[]>;
    json?: unknown;
    /** An alias sheet (multipart) naming these licence keys. */
    sheet?: string[];
    /** Other multipart fields (an inquiry's edit). */
    fields?: Record<string, string>;
    cookie?: string;
    /** Must be refused (401/403/404/410 or a redirect). */
    deny?: boolean;
    /** What would show the write went through. */
    wrong?: (a: Answer) => string | null;
  }
  const ids = (list: Resource[]) => list.map((r) => r.value);
  const fieldsForm = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const inquiryEdit = (id: string) => ({ id, category: "payment", title: HIJACK, description: HIJACK, email: "authz@example.com" });
  /**
   * A key-only caller (the editor's licence headers, no login) pays or asks for a purchase with its own key, and
   * the API reads no licence or request id from the body then. The licence principals' keys are individual ones,
   * which that door refuses first with the spec's KEY_NOT_BUSINESS (409): a refusal that no id in the body can
   * change. Any other answer to them must still be a refusal, and the data is compared after the writes either way.
   */
  const refusedAsIndividualKey = (a: Answer) =>
    LICENCE_OF[a.request.who] !== undefined && a.request.api === true && a.status === 409 && a.json?.data?.error === "KEY_NOT_BUSINESS";
  const heldCodes = (list: Resource[]) => list.map((r) => ({ item_code: (r.extra as string[])[0] }));
  const sheetForm = (serials: string[]) => {
    const bytes = xlsxOf({ text: SHEET_HEAD + serials.map((s, i) => sheetRow(i + 1, s, HIJACK)).join("") + SHEET_TAIL });
    const body = new FormData();
    body.append("file", new File([new Uint8Array(bytes)], "aliases.xlsx"));
    return body;
  };
  const aliasSheet = (who: Who): Write[] => [
    {
      path: "users/licenses/aliases/fileupload",
      sheet: ids(foreign(who, "serial")),
      wrong: (a) => (a.json?.data?.count ? `renamed ${a.json.data.count}` : null),
    },
  ];
  const nothingGranted = (a: Answer) =>
    a.status === 200 && a.json?.data?.granted?.length ? `granted ${JSON.stringify(a.json.data.granted)}` : null;
  /** Business keys (the key lookup's subject): another's is tried with an e-mail that is not its licensing e-mail. */
  const BUSINESS_KEYS: readonly Scope[] = ["Z1", "Z2", "Y1", "O"];
  const WRONG_EMAIL = "not-the-licensing-email@example.com";
  const foreignKeys = (who: Who) => foreign(who, "serial").filter((k) => BUSINESS_KEYS.includes(k.scope));
  /** The principal's own purchase requests still waiting for payment. */
  const ownWaiting = (who: Who) => w.resources.filter((r) => r.kind === "request" && r.waiting && memberOwns(who, r.scope));
  const startedPaying = (a: Answer) => (a.location.endsWith("/pay01") ? "started paying another's purchase requests" : null);
  const agreed = { method: "card", agree_terms: true, agree_paid: true };

  /** API writes that take ids, sent with every id of other principals. */
  const API_WRITES: Record<string, (who: Who) => Write[]> = {
    "DELETE carts": (who) => [{ path: "carts", json: { cart_id: ids(foreign(who, "cart")).map(Number) } }],
    "DELETE interests": (who) => [{ path: "interests", json: { interest_id: ids(foreign(who, "interest")).map(Number) } }],
    "PUT support/qna": (who) =>
      foreign(who, "inquiry").map((q) => ({ method: "PUT" as ApiMethod, path: "support/qna", fields: inquiryEdit(q.value), deny: true })),
    "POST mail/send": (who) =>
      foreign(who, "order").map((o) => ({ path: "mail/send", json: { type: "receipt", order_id: Number(o.value) }, deny: true })),
    "POST users/licenses/aliases": (who) =>
      foreign(who, "licence").map((l) => ({
        path: "users/licenses/aliases",
        json: { list: [{ id: Number(l.value), alias: HIJACK }] },
        deny: true,
      })),
    "POST users/licenses/orders": (who) => [
      { path: "users/licenses/orders", json: { order: ids(foreign(who, "licence")).map(Number) } },
      {
        path: "users/licenses/orders",
        json: {
          order: [...w.resources.filter((r) => r.kind === "licence" && memberOwns(who, r.scope)), ...foreign(who, "licence")].map((r) =>
            Number(r.value),
          ),
        },
      },
    ],
    "POST users/licenses/aliases/fileupload": aliasSheet,
    "PUT users/licenses/aliases/fileupload": aliasSheet,
    "DELETE requests": (who) => [
      {
        path: "requests",
        json: { request_id_list: ids(foreign(who, "request")).map(Number) },
        wrong: (a) => (a.json?.data?.count ? `deleted ${a.json.data.count} of others' purchase requests` : null),
      },
    ],
    "POST requests": (who) =>
      foreignKeys(who).map((k) => ({
        path: "requests",
        json: {
          message: HIJACK,
          request_email: "hijack@example.com",
          license_id: k.value,
          license_email: WRONG_EMAIL,
          item_list: [w.publicVideo.code],
        },
        deny: true,
      })),
    "POST payments": (who) => [
      // A representative pays only its own purchase requests: others' alone, or with one of its own waiting.
      {
        path: "payments",
        json: { request_id_list: ids(foreign(who, "request")).map(Number), ...agreed, idempotency_key: `authz-${who}-requests` },
        deny: true,
      },
      ...ownWaiting(who).map((r) => ({
        path: "payments",
        json: {
          request_id_list: [Number(r.value), ...ids(foreign(who, "request")).map(Number)],
          ...agreed,
          idempotency_key: `authz-${who}-mixed-${r.value}`,
        },
        deny: true,
      })),
      // A direct purchase by another's business key needs its licensing e-mail (a member's call is the member's own
      // checkout, which does not read the key: it must place nothing).
      ...foreignKeys(who).map((k) => ({
        path: "payments",
        json: {
          items: [{ kind: "content", id: w.publicVideo.id }],
          license_key: k.value,
          license_email: WRONG_EMAIL,
          ...agreed,
          idempotency_key: `authz-${who}-key-${k.scope}`,
        },
        deny: who === "anonymous",
        wrong: (a: Answer) => (a.status === 200 ? `placed ${a.json?.data?.order_no} with another's key` : null),
      })),
      // Buying for a non-member's licence by its key is the spec's purchase by key; by its id, it is not.
      ...[...foreign(who, "licence"), ...foreign(who, "serial").filter((l) => l.scope !== "N")].map((l) => ({
        path: "payments",
        json: {
          items: [{ kind: "content", id: w.publicVideo.id }],
          ...(l.kind === "licence" ? { license_id: Number(l.value) } : { serial: l.value }),
          method: "card",
          agree_terms: true,
          agree_paid: true,
          idempotency_key: `authz-${who}-${l.kind}-${l.value}`,
        },
        deny: true,
      })),
    ],
    "POST contents/downloads": (who) => [
      { path: "contents/downloads", json: { contents_list: heldCodes(foreign(who, "held")) }, wrong: nothingGranted },
    ],
    "POST contents/downloads/pass": (who) =>
      foreign(who, "pass").map((p) => ({
        path: "contents/downloads/pass",
        json: { contents_list: [{ item_code: w.publicVideo.code }], pass_id: Number(p.value) },
        deny: true,
        wrong: nothingGranted,
      })),
    "POST contents/downloads/redeem": (who) =>
      foreign(who, "bridge").map((t) => ({
        path: "contents/downloads/redeem",
        json: { token: t.value },
        deny: true,
        wrong: nothingGranted,
      })),
    "POST users/contents/overlap": (who) => [
      {
        path: "users/contents/overlap",
        json: { contents_list: heldCodes(foreign(who, "held")) },
        wrong: (a) => (a.json?.data?.list?.some((i: { owned: boolean }) => i.owned) ? "reports another's items as owned" : null),
      },
    ],
  };
  /** API writes that take no owner's id: what they touch is the caller's own. */
  const API_WRITES_WITHOUT_IDS: Record<string, string> = {
    "POST carts": "adds public items to the caller's own cart",
    "POST interests": "adds public items to the caller's own favorites",
    "POST users": "the caller's own newsletter choice",
    "DELETE users": "withdraws the caller",
    "POST users/youtube": "the caller's own channel",
    "POST contents/downloads/free": "public free items into the caller's own licence",
    "POST support/qna": "files a new inquiry of the caller's own",
    "POST auth/request_blowfish": "a sign-in hand-off for the caller's own editor installation (its license_id and hw_info headers)",
  };

  /** Page writes that take ids, sent with every id of other principals. */
  const PAGE_WRITES: Record<string, (who: Who) => Write[]> = {
    "routes/_store.mypage.qna.$id": (who) =>
      foreign(who, "inquiry").map((q) => ({ path: `/mypage/qna/${q.value}`, fields: inquiryEdit(q.value), deny: true })),
    "routes/_store.mypage.pay.$id": (who) => [
      ...foreign(who, "order").map((o) => ({
        path: `/mypage/pay/${o.value}`,
        form: { line: o.extra as string[], reason: "authz" },
        deny: true,
      })),
      // One's own payment with another's lines.
      ...w.resources
        .filter((o) => o.kind === "order" && memberOwns(who, o.scope))
        .map((o) => ({
          path: `/mypage/pay/${o.value}`,
          form: { line: foreign(who, "order").flatMap((f) => f.extra as string[]), reason: "authz" },
          wrong: (a: Answer) => (a.json?.ok || a.status === 200 ? `answered ${a.status}` : null),
        })),
    ],
    // The webview cancels only the key's own direct purchases: every other order (another licence's, a member's) is refused.
    "embedded-pay-detail": (who) =>
      w.resources
        .filter((o) => o.kind === "order" && !licenceOwns(who, o.scope))
        .map((o) => ({ path: `/mypage/sw/pay/${o.value}`, form: { line: o.extra as string[], reason: "authz" }, deny: true })),
    // The mail's order link cancels with a valid token only.
    "routes/_store.mypage.order.$id": () =>
      w.resources
        .filter((o) => o.kind === "order")
        .map((o) => ({
          path: `/mypage/order/${o.value}?access=${FORGED_ORDER_ACCESS}`,
          form: { line: o.extra as string[], reason: "authz" },
          deny: true,
        })),
    "routes/_store.mypage.licenses": (who) => [
      ...foreign(who, "licence").flatMap((l): Write[] => [
        { path: "/mypage/licenses", form: { intent: "alias", id: l.value, alias: HIJACK }, deny: true },
        { path: "/mypage/licenses", form: { intent: "move", id: l.value, direction: "up" } },
        { path: "/mypage/licenses", form: { intent: "move", id: l.value, direction: "down" } },
        // Linking by key and e-mail is for non-member licences only; another member's licence is refused.
        ...(l.scope === "N"
          ? []
          : [{ path: "/mypage/licenses", form: { intent: "link", serial: serialOf(l), email: (l.extra as string[])[0] } }]),
      ]),
      { path: "/mypage/licenses", form: { intent: "order", order: ids(foreign(who, "licence")).join(",") } },
    ],
    "routes/_store.mypage.interest": (who) => [
      { path: "/mypage/interest", form: { intent: "remove", interest_id: ids(foreign(who, "interest")) } },
      { path: "/mypage/interest", form: { intent: "cart", interest_id: ids(foreign(who, "interest")) } },
    ],
    "routes/_store.cart": (who): Write[] => [
      ...(["request", "direct"] as const).map((intent) => ({
        path: "/cart",
        form: { intent, cart_id: ids(foreign(who, "cart")) },
        wrong: (a: Answer) => (/\/(pay-key|pay01)$/.test(a.location) ? `started a ${intent} checkout of another's cart` : null),
      })),
      { path: "/cart", form: { intent: "remove", cart_id: ids(foreign(who, "cart")) } },
      { path: "/cart", form: { intent: "removeConfirmed", cart_id: ids(foreign(who, "cart")) } },
      { path: "/cart", form: { intent: "removeHeld", held_id: ids(foreign(who, "cart")) } },
      { path: "/cart", form: { intent: "favorite", cart_id: ids(foreign(who, "cart")) } },
      {
        path: "/cart",
        form: { intent: "buy", cart_id: ids(foreign(who, "cart")) },
        wrong: (a) => (a.location.endsWith("/pay01") ? "started a checkout of another's cart" : null),
      },
    ],
    "routes/_store.mypage.download": (who) =>
      foreign(who, "licence").map((l) => ({
        path: "/mypage/download",
        form: { license: l.value, item: ids(foreign(who, "held")) },
        wrong: (a) => (a.location.includes("download-bridge") ? "handed another's items over" : null),
      })),
    "routes/sandbox.pay.$id": (who) =>
      foreign(who, "payment").map((p) => ({
        path: `/sandbox/pay/${encodeURIComponent(p.value)}`,
        form: { action: "decline" },
        deny: true,
      })),
    "embedded-download": (who) => [
      {
        path: "/mypage/sw/download",
        form: { item: ids(foreign(who, "held")) },
        wrong: (a) => (a.location.includes("token=") ? "handed another's items over" : null),
      },
    ],
    "routes/_store.mypage.purchase._index": (who) => {
      const others = ids(foreign(who, "request"));
      return [
        { path: "/mypage/purchase", form: { intent: "delete", request: others } },
        { path: "/mypage/purchase", form: { intent: "pay", request: others }, deny: true, wrong: startedPaying },
        ...ownWaiting(who).map((r) => ({
          path: "/mypage/purchase",
          form: { intent: "pay", request: [r.value, ...others] },
          deny: true,
          wrong: startedPaying,
        })),
      ];
    },
    "routes/_store.mypage.purchase.$id": (who) =>
      foreign(who, "request").flatMap((r): Write[] => [
        { path: `/mypage/purchase/${r.value}`, form: { intent: "pay" }, deny: true, wrong: startedPaying },
        { path: `/mypage/purchase/${r.value}`, form: { intent: "delete" }, deny: true },
      ]),
    "routes/_store.pay-key": (who) =>
      foreignKeys(who).map((k) => ({
        path: "/pay-key",
        form: { serial: k.value, email: WRONG_EMAIL },
        cookie: keyCheckouts.get(who),
        deny: true,
        wrong: (a: Answer) =>
          /\/(request|pay03)$/.test(a.location)
            ? `took ${k.scope}'s key without its licensing e-mail`
            : keyCheckouts.get(who) && a.status !== 404
              ? `answered ${a.status}, not the lookup's 404 (the checkout was not taken up)`
              : null,
      })),
    "embedded-request": (who) => [
      {
        path: "/mypage/sw/request",
        form: { cart_id: ids(foreign(who, "cart")), request_email: "hijack@example.com", message: HIJACK },
        wrong: (a) => (/REQ-\d{8}-/.test(a.haystack) ? "wrote a purchase request of another's cart" : null),
      },
    ],
    "routes/_store.pay02": (who) =>
      foreign(who, "licence").map((l) => ({
        path: "/pay02",
        form: { choice: l.value },
        cookie: checkouts.get(who),
        wrong: (a: Answer) => (a.location.endsWith("/pay03") ? `took another's licence ${l.scope} for the purchase` : null),
      })),
  };
  /**
   * Each member's checkout in progress (its signed pay cookie), started from its own cart before the writes: a
   * member's purchase, and a purchase request that has yet to look its key up (/pay-key).
   */
  const checkouts = new Map<Who, string>();
  const keyCheckouts = new Map<Who, string>();
  async function startCheckouts() {
    for (const who of MEMBERS) {
      const own = w.resources.find((r) => r.kind === "cart" && memberOwns(who, r.scope)) as Resource;
      const res = await ask({ who, method: "POST", path: "/cart", form: { intent: "buy", cart_id: [own.value] } });
      expect(res.location).toMatch(/\/pay01$/);
      checkouts.set(who, res.cookies.find((c) => c.startsWith("pay=")) ?? "");
      const asking = await ask({ who, method: "POST", path: "/cart", form: { intent: "request", cart_id: [own.value] } });
      expect(asking.location).toMatch(/\/pay-key$/);
      keyCheckouts.set(who, asking.cookies.find((c) => c.startsWith("pay=")) ?? "");
    }
  }
  const serialOf = (licence: Resource) => (w.resources.find((r) => r.kind === "serial" && r.scope === licence.scope) as Resource).value;
  /** Page writes that take no owner's id. */
  const PAGE_WRITES_WITHOUT_IDS: Record<string, string> = {
    "routes/_store.login": "signs in with an e-mail and password",
    "routes/_store.join": "creates an account",
    "routes/_store.mypage.member": "the caller's own profile and channel",
    "routes/_store.mypage.withdraw": "withdraws the caller",
    "routes/_store.support.question": "files a new inquiry",
    "routes/_store.pay01": "coupon codes are shared, not owned; the checkout is the caller's signed pay cookie",
    "routes/_store.pay03": "places the order of the caller's signed pay cookie",
    "routes/_store.request":
      "writes a purchase request for the key the caller's own checkout looked up (signed pay cookie), of the items its own cart put there",
    "routes/logout": "signs the caller out",
    "routes/_store.rejection": "the member is named by a signed token from their own mail; an id without its signature opens nothing",
    "routes/$": "redirects to /404",
    "routes/webhooks.payments.$gateway": "server to server, verified by signature",
    "embedded-benefit": "public benefit items, for the webview's own licence",
    "routes/api.v1.$": "the API's table is walked on its own",
  };

  /** Every row of every principal's data that a write could change. */
  async function snapshot() {
    return {
      users: await db.selectFrom("users").select(["id", "nickname", "email"]).orderBy("id").execute(),
      licenses: await db.selectFrom("licenses").select(["id", "user_id", "alias", "sort_order", "status", "email"]).orderBy("id").execute(),
      orders: await db
        .selectFrom("orders")
        .select(["id", "user_id", "license_id", "status", "cancel_amount", "cancel_quantity"])
        .orderBy("id")
        .execute(),
      order_items: await db
        .selectFrom("order_items")
        .select(["id", "status", "refund_amount", "first_downloaded_at"])
        .orderBy("id")
        .execute(),
      refunds: await db.selectFrom("refunds").select(["id"]).orderBy("id").execute(),
      carts: await db.selectFrom("carts").select(["id", "user_id", "content_id"]).orderBy("id").execute(),
      interests: await db.selectFrom("interests").select(["id", "user_id", "content_id"]).orderBy("id").execute(),
      passes: await db.selectFrom("passes").select(["id", "user_id", "license_id", "remaining", "status"]).orderBy("id").execute(),
      downloads: await db.selectFrom("downloads").select(["id", "license_id", "content_id", "pass_id"]).orderBy("id").execute(),
      download_tokens: await db.selectFrom("download_tokens").select(["id", "kind", "license_id", "redeemed_at"]).orderBy("id").execute(),
      support_tickets: await db
        .selectFrom("support_tickets")
        .select(["id", "user_id", "title", "description", "email", "status"])
        .orderBy("id")
        .execute(),
      purchase_requests: await db
        .selectFrom("purchase_requests")
        .select(["id", "owner_user_id", "license_id", "status", "order_id", "paid_at", "deleted_at"])
        .orderBy("id")
        .execute(),
      order_requests: await db.selectFrom("order_requests").select(["order_id", "request_id"]).orderBy("request_id").execute(),
    };
  }

  it("refuses every write made with another principal's ids, and leaves their data as it was", async () => {
    violations.length = 0;
    await startCheckouts();
    const before = await snapshot();
    const problems: string[] = [];
    // The store parses two alias sheets at a time and answers 503 beyond that: sheets go one by one.
    let sheets = Promise.resolve();
    const oneAtATime = <T>(job: () => Promise<T>) => {
      const done = sheets.then(job);
      sheets = done.then(
        () => {},
        () => {},
      );
      return done;
    };
    const run = async (w0: Write, who: Who, api: boolean, routeId: string) => {
      const send = () =>
        ask({
          who,
          method: w0.method ?? "POST",
          path: api ? `/api/v1/${w0.path}` : w0.path,
          api,
          form: w0.form,
          json: w0.json,
          multipart: w0.sheet ? sheetForm(w0.sheet) : w0.fields ? fieldsForm(w0.fields) : undefined,
          carried: w0.sheet,
          cookie: w0.cookie,
        });
      const a = await (w0.sheet ? oneAtATime(send) : send());
      audit(a, routeId);
      if (w0.deny && !refusedAsIndividualKey(a)) expectOutcome(a, "deny");
      const wrong = w0.wrong?.(a);
      if (wrong) problems.push(`${describeRequest(a.request)}: ${wrong}`);
    };
    // The principals write side by side; each one's writes in turn.
    await Promise.all(
      WHO.map(async (who) => {
        for (const [key, writes] of Object.entries(API_WRITES)) {
          const method = key.split(" ")[0] as ApiMethod;
          for (const x of writes(who)) {
            await run({ ...x, method }, who, true, "routes/api.v1.$");
            counts.apiWrites++;
          }
        }
        for (const [routeId, writes] of Object.entries(PAGE_WRITES)) {
          for (const x of writes(who)) {
            await run(x, who, false, routeId);
            counts.pageWrites++;
          }
        }
      }),
    );
    await sandbox.settled();
    expect([...problems, ...violations]).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(JSON.stringify(await db.selectFrom("licenses").select("alias").execute())).not.toContain(HIJACK);
  }, 600_000);

  it("showed every principal its own data (the positive control)", () => {
    const missing: string[] = [];
    for (const who of WHO)
      for (const m of w.markers)
        if (
          VISIBLE[who].includes(m.scope) &&
          (!m.quiet || (m.quiet === "members" && MEMBERS.includes(who))) &&
          !seen.get(who)?.has(m.label)
        )
          missing.push(`${who} never saw ${m.scope}'s ${m.label}`);
    expect(missing).toEqual([]);
    console.info(
      `authorization matrix (${ENGINE}): ${WHO.length} principals; ${counts.pages} page routes, ${counts.pageRequests} page requests; ` +
        `${counts.endpoints} API endpoints, ${counts.apiRequests} API requests; ${counts.pageWrites} page and ${counts.apiWrites} API writes with others' ids`,
    );
  });
});
