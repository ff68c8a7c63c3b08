import fs from "node:fs";
import net from "node:net";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { ADMIN_FORM_SAMPLES } from "./admin-samples";
import { type Answer, type PrivateServer, pool, type Sent, send, startPrivateServer, traceIn } from "./harness";
import {
  API_PREFIX,
  type ApiEndpoint,
  allQueryNames,
  apiEndpoints,
  fill,
  isApiDoor,
  type PageRoute,
  PLAUSIBLE_API_PARAMS,
  PLAUSIBLE_PARAMS,
  pageRoutes,
  unfilledParams,
} from "./routes";

/**
 * A fixed corpus of malformed requests against every page route (storefront, the editor's webview under
 * /mypage/sw, resource routes) and every API endpoint, enumerated from the build and the API's route table,
 * sent to the real server (server.ts with its guards) as a visitor, as a member with a licence and as the editor,
 * and over the business customers' routes as the demo's business representative with its key on the editor and a
 * purchase request checkout. No answer may be a 5xx or carry a stack trace, the server may log no error-level line,
 * and where the one right answer is known (the guards' refusals, KNOWN_ANSWERS) it must be that one. Nothing here
 * is random: the same requests go out on every run.
 *
 * It runs on a private copy of the e2e server (harness.ts): the hostile writes stay out of the shared database,
 * and the server's log can be read.
 */

// ---------------------------------------------------------------------------------------------------------------
// The corpus

/** Hostile values of a path segment, already percent-encoded as they go on the wire. */
const HOSTILE_SEGMENTS = [
  "-1",
  "99999999999999999999",
  "1e309",
  "%00",
  "%FF%FE",
  "%E0%A4%A",
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "a".repeat(3000),
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "__proto__",
  "'%20OR%201=1--",
  "VI0000001%00%F0%9F%92%A9",
];

/** Hostile values of a search parameter, applied to every known name at once. */
const HOSTILE_VALUES = [
  "99999999999999999999",
  "-1",
  "NaN",
  "",
  "%00",
  "%FF%FE",
  "%ZZ%",
  "%3Cscript%3E",
  "__proto__",
  "1e309",
  "0",
  "true",
  "1,2,-3,x,,",
  "%E2%80%AE%F0%9F%92%A9",
];

/**
 * Query strings built from the names a route reads (its own and the shared ones). Every name gets hostile values
 * in rotation (name i takes value i + k in query k), so fourteen queries give every name each of the fourteen
 * values once (?page=99999999999999999999 among them), each time beside different values of the other names.
 */
function hostileQueries(names: string[], own: string[], rotations = HOSTILE_VALUES.length): string[] {
  const rotated = (k: number) =>
    names.map((n, i) => `${encodeURIComponent(n)}=${HOSTILE_VALUES[(i + k) % HOSTILE_VALUES.length]}`).join("&");
  const mine = own.length ? own : ["page", "type", "id"];
  return [
    ...Array.from({ length: rotations }, (_, k) => rotated(k)),
    // Arrays, nesting, names without values, a long value on the route's own names.
    names.map((n) => `${n}[]=1&${n}[]=2&${n}=3&${n}=4`).join("&"),
    names.map((n) => `${n}[a][__proto__]=1`).join("&"),
    `${names.join("&")}&&&==&=&%ZZ=1&%FF=2&%00=3`,
    mine.map((n) => `${n}=${"a".repeat(Math.floor(10_000 / mine.length))}`).join("&"),
    // The permalink restore of the root loader, and the language switch.
    `user_type=x&market-query=${encodeURIComponent(`${"a=1&".repeat(200)}__proto__=1&page=-1`)}%ZZ`,
    "language=xx&language=ko&language=%00",
  ];
}

/** Garbage credentials and preferences: cookies, the API's headers, the editor's headers, languages. */
const GARBAGE_HEADERS: Record<string, string>[] = [
  {
    cookie: "gt=garbage; gsi=garbage; ngt=%%; sw_license=x; pay=x; lng=zz; __proto__=1",
    authorizationToken: "garbage",
    ngt: "%%",
    license_id: "x'--",
    hw_info: "%00",
    language: "xx",
    "accept-language": "*;q=NaN, ko-KR;q=2, en;q=-1, ,,;;",
  },
  {
    cookie: `gt=${"A".repeat(3000)}; gsi=1; pay=${"e30=".repeat(300)}; ngt=%E0%A4%A; lng=ko; lng=en`,
    authorizationToken: "eyJ4IjoxfQ==.x",
    license_id: "VEDT-IND-0001-DEMO",
    hw_info: "WRONG",
    language: "ko,en",
    "accept-language": "x".repeat(1000),
  },
  {
    // Shaped like the store's signed cookies (value.signature), with bad signatures.
    cookie: "gt=eyJ4IjoxfQ%3D%3D.badsig; gsi=MQ%3D%3D.x; ngt=IngiLg%3D%3D.x; sw_license=eyJzZXJpYWwiOjF9.x; pay=e30%3D.x",
    authorizationToken: `${"a".repeat(2000)}.${"b".repeat(100)}`,
    license_id: "a".repeat(2000),
    hw_info: "b".repeat(2000),
    "accept-language": "zz-ZZ-invalid-tag-xxxxxxxxx, ko;q=0.5",
  },
  // Malformed standard headers (issue 25, point 3): each is refused with a 4xx or ignored, never a 5xx.
  {
    origin: "garbage",
    referer: "::::",
    range: "bytes=abc",
    "if-none-match": '"',
    "if-modified-since": "garbage",
    "x-forwarded-for": "garbage, , ::::",
    "accept-encoding": "gzip;q=abc, br;q=",
  },
  {
    origin: "http://[bad",
    referer: "http://a:99999/x",
    range: "bytes=99999999999999999999-, 5-1, -0",
    "if-none-match": "W/",
    "x-forwarded-host": "[bad",
    "x-forwarded-proto": "gopher",
    "accept-language": ";;;q=abc,*-*-*",
  },
  { origin: "http://a:99999", "content-type": "multipart/form-data; boundary=", range: "bytes=0-0,0-0,0-0,0-0,0-0,0-0,0-0,0-0" },
  { origin: "://x", "content-type": ";;;", "if-match": "*, garbage", "cache-control": "max-age=-1, no-cache=" },
];

const urlencoded = (fields: Record<string, string | string[]>) => {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields))
    for (const x of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(x)}`);
  return parts.join("&");
};

const BOUNDARY = "----fuzzboundary7MA4YWxkTrZu0gW";
type Part = { name: string; value: string | Uint8Array; filename?: string; type?: string };
function multipart(parts: Part[]): Uint8Array {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : p.filename !== undefined ? "Content-Type: application/octet-stream\r\n" : ""}\r\n`,
      ),
    );
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const FORM = "application/x-www-form-urlencoded";
const JSON_TYPE = "application/json";

/** Bodies that are not what anything expects, for any write (page or API). */
const GENERIC_BODIES: { label: string; type?: string; body?: string | Uint8Array }[] = [
  { label: "no body" },
  { label: "empty json", type: JSON_TYPE, body: "" },
  { label: "json {", type: JSON_TYPE, body: "{" },
  { label: "json null", type: JSON_TYPE, body: "null" },
  { label: "json array", type: JSON_TYPE, body: "[]" },
  { label: "json number", type: JSON_TYPE, body: "1e309" },
  { label: "json proto", type: JSON_TYPE, body: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}' },
  { label: "json deep", type: JSON_TYPE, body: `${"[".repeat(20_000)}${"]".repeat(20_000)}` },
  { label: "json invalid utf-8", type: JSON_TYPE, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
  { label: "text/plain", type: "text/plain", body: "intent=add&code=VI0000006" },
  { label: "xml", type: "application/xml", body: "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>" },
  { label: "urlencoded empty", type: FORM, body: "" },
  { label: "urlencoded invalid utf-8", type: FORM, body: "%FF%FE=%FF&intent=%FF%FE&id=%C0%AF" },
  { label: "urlencoded bad escapes", type: FORM, body: "%ZZ=%ZZ&intent=%&id=%%" },
  { label: "urlencoded no intent", type: FORM, body: "id=1&code=VI0000006" },
  { label: "urlencoded unknown intent", type: FORM, body: "intent=__proto__&id=-1&_action=x" },
  { label: "urlencoded many fields", type: FORM, body: "a=1&".repeat(20_000) },
  { label: "urlencoded huge field", type: FORM, body: `intent=add&code=${"A".repeat(1_000_000)}` },
  { label: "multipart unreadable", type: MULTIPART, body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end` },
  { label: "multipart other boundary", type: "multipart/form-data; boundary=zzz", body: multipart([{ name: "intent", value: "add" }]) },
  {
    label: "multipart wrong fields",
    type: MULTIPART,
    body: multipart([
      { name: "intent", value: "add", filename: "intent.txt" },
      { name: "sheet", value: "not a file" },
      { name: "attachment", value: "not a file" },
      { name: "file", value: "x" },
      { name: "id", value: "-1" },
    ]),
  },
  {
    label: "multipart garbage files",
    type: MULTIPART,
    body: multipart([
      { name: "sheet", value: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xff, 0x00]), filename: "a.xlsx" },
      { name: "file", value: "serial,alias\n\"unterminated,\n=cmd|' /C calc'!A0,x\n", filename: "a.csv", type: "text/csv" },
      { name: "attachment", value: new Uint8Array(64).fill(0xff), filename: "../../etc/passwd.png", type: "image/png" },
      { name: "category", value: "other" },
      { name: "title", value: "t" },
      { name: "description", value: "d" },
      { name: "email", value: "fuzz@example.com" },
    ]),
  },
];

/**
 * The shape of each page action's forms (one per intent), as the pages send them. Each goes out as it is and with
 * every value replaced by hostile ones. A route with an action and no entry here fails the suite.
 */
const FORM_SAMPLES: Record<string, Record<string, string | string[]>[]> = {
  ...ADMIN_FORM_SAMPLES,
  "routes/_store.cart": [
    { intent: "add", code: "VI0000006", redirectTo: "/video", js: "1" },
    { intent: "add", code: "VI0000006", redirectTo: "//evil.example/x" },
    { intent: "remove", cart_id: ["1", "2"], pass_line: ["1"] },
    { intent: "favorite", cart_id: ["1"] },
    { intent: "buy", cart_id: ["1"], pass_line: ["1"] },
    { intent: "addPass", pass: "1", redirectTo: "/price/video", js: "1" },
    { intent: "request", cart_id: ["1", "2"] },
    { intent: "direct", cart_id: ["1"] },
    { intent: "buyNow", code: "VI0000006", redirectTo: "/video" },
    { intent: "buyNow", code: "VI0000006", redirectTo: "//evil.example/x" },
    { intent: "removeConfirmed", cart_id: ["1", "2"], pass_line: ["1"] },
    { intent: "removeHeld", held_id: ["1", "-1", "x"] },
  ],
  "routes/_store.mypage.interest": [
    { intent: "add", code: "VI0000006", redirectTo: "/mypage/interest", js: "1" },
    { intent: "remove", interest_id: ["1", "2"] },
    { intent: "cart", interest_id: ["1"] },
  ],
  "routes/_store.mypage.licenses": [
    { intent: "alias", id: "1", alias: "fuzz" },
    { intent: "move", id: "1", direction: "up" },
    { intent: "order", order: "1,2,3" },
    { intent: "link", serial: "VEDT-NON-0001-DEMO", email: "nobody@example.com" },
  ],
  "routes/_store.mypage.download": [{ license: "1", item: ["1", "2"] }],
  "routes/_store.mypage.member": [
    { intent: "profile", nickname: "fuzz", newsletter: "on" },
    { intent: "youtube", channel: "https://www.youtube.com/channel/UCxxxxxxxxxxxxxxxxxxxxxx" },
  ],
  "routes/_store.mypage.pay.$id": [{ line: ["1"], reason: "fuzz", bank: "b", account: "1", holder: "h" }],
  "routes/_store.mypage.withdraw": [{ confirmDelete: "on", confirmLoss: "on", reason: "other", detail: "fuzz" }],
  "routes/_store.support.question": [{ category: "other", title: "fuzz", description: "fuzz", email: "fuzz@example.com" }],
  "routes/_store.login": [{ email: "not-an-address", password: "x", redirectTo: "//evil.example" }],
  "routes/_store.join": [
    { email: "fuzz-join@example.com", password: "long-enough-pw", nickname: "fuzz", agreeTerms: "on", redirectTo: "/\\evil.example" },
  ],
  "routes/_store.pay01": [{ intent: "apply", code: "WELCOME20" }, { intent: "remove" }, { intent: "drop", drop: ["1", "x"] }],
  "routes/_store.pay02": [{ choice: "1" }, { choice: "key", serial: "VEDT-NON-0001-DEMO" }, { intent: "drop", drop: ["1"] }],
  "routes/_store.pay03": [
    { method: "card", agreeTerms: "on", agreePaid: "on" },
    { intent: "drop", drop: ["1"] },
  ],
  "routes/_store.mypage.order.$id": [{ line: ["1"], reason: "fuzz", bank: "b", account: "1", holder: "h" }],
  "embedded-pay-detail": [{ line: ["1"], reason: "fuzz", bank: "b", account: "1", holder: "h" }],
  "routes/_store.pay-key": [
    { serial: "VEDT-B2B-0001-DEMO", email: "editor1@studio.example" },
    { serial: "VEDT-IND-0001-DEMO", email: "nobody@example.com" },
  ],
  "routes/_store.request": [
    { request_email: "requester@studio.example", message: "Studio, fuzz" },
    { intent: "drop", drop: ["1"] },
  ],
  "routes/_store.mypage.qna.$id": [{ category: "payment", title: "fuzz", description: "fuzz", email: "fuzz@example.com" }],
  "routes/_store.rejection": [{ token: "MQ.not-a-real-signature" }, { "List-Unsubscribe": "One-Click" }],
  "routes/_store.mypage.purchase._index": [
    { intent: "pay", request: ["1", "3"] },
    { intent: "delete", request: ["999"] },
  ],
  "routes/_store.mypage.purchase.$id": [{ intent: "pay" }, { intent: "delete" }],
  "routes/sandbox.pay.$id": [{ action: "approve" }, { action: "deposit" }],
  "routes/logout": [{ redirectTo: "//evil.example" }],
  "routes/webhooks.payments.$gateway": [{ type: "Transaction.Paid", data: "{}" }],
  "routes/$": [{ intent: "x" }],
  "embedded-download": [{ item: ["1", "2"] }],
  "embedded-benefit": [{ item: ["1", "2"] }],
  "embedded-request": [
    { cart_id: ["1", "2"], request_email: "requester@studio.example", message: "Studio, fuzz" },
    { intent: "removeHeld", held_id: ["1", "x"] },
  ],
};

const HOSTILE_FORM_VALUES = ["-1", "99999999999999999999", "", "x".repeat(5000), "1e309\u0000\uFFFF\u202E\u{1F4A9}"];

function formVariants(sample: Record<string, string | string[]>): string[] {
  const out = [urlencoded(sample)];
  for (const h of HOSTILE_FORM_VALUES) {
    const v: Record<string, string | string[]> = {};
    // The intent stays, so each variant reaches its branch.
    for (const [k, x] of Object.entries(sample)) v[k] = k === "intent" ? x : Array.isArray(x) ? [h, h] : h;
    out.push(urlencoded(v));
  }
  // Every field repeated, and a thousand ids where the form takes a list.
  const repeated: Record<string, string[]> = {};
  for (const [k, x] of Object.entries(sample))
    repeated[k] = Array.isArray(x) ? Array.from({ length: 1000 }, (_, i) => String(i + 1)) : [String(x), "2"];
  out.push(urlencoded(repeated));
  return out;
}

/**
 * The JSON each API write takes, as its handler documents it. Each goes out as it is and with every leaf replaced
 * by hostile values. A write endpoint with no entry here fails the suite.
 */
const JSON_SAMPLES: Record<string, unknown> = {
  "POST carts": { contents_list: [{ item_code: "VI0000006", item_type: "video", contents_file_type: 1 }] },
  "DELETE carts": { cart_id: [1, 2] },
  "POST interests": { item_list: ["VI0000006"] },
  "DELETE interests": { interest_id: [1, 2] },
  "POST users": { market_email_agree: 1 },
  "POST auth/request_blowfish": {},
  "POST mail/send": { type: "receipt", order_id: 1 },
  "DELETE users": { reason: "other", detail: "fuzz" },
  "POST users/youtube": { channel_id: "UCxxxxxxxxxxxxxxxxxxxxxx" },
  "POST users/licenses/aliases": { list: [{ id: 1, alias: "fuzz" }] },
  "POST users/licenses/orders": { order: [1, 2, 3] },
  "POST users/licenses/aliases/fileupload": { file: "not a file" },
  "PUT users/licenses/aliases/fileupload": { file: "not a file" },
  // support/qna takes multipart: JSON is refused, and the generic multipart bodies carry inquiry fields.
  "POST support/qna": { category: "payment", title: "fuzz", description: "fuzz", email: "fuzz@example.com" },
  "PUT support/qna": { id: 1, category: "payment", title: "fuzz", description: "fuzz", email: "fuzz@example.com" },
  "POST payments": {
    items: [{ kind: "content", id: 6 }],
    license_id: 1,
    serial: "VEDT-NON-0001-DEMO",
    method: "card",
    agree_terms: true,
    agree_paid: true,
    idempotency_key: "fuzz-key-0001",
    coupon: "WELCOME20",
  },
  "POST contents/downloads": { contents_list: [{ item_code: "VI0000006" }], pass_id: 1 },
  "POST contents/downloads/free": { contents_list: [{ item_code: "AU0000002" }] },
  "POST contents/downloads/pass": { contents_list: [{ item_code: "VI0000006" }], pass_id: 1 },
  "POST contents/downloads/redeem": { token: "abcdefghijklmnopqrstuvwxyz012345" },
  "POST users/contents/overlap": { contents_list: [{ item_code: "VI0000006" }] },
  "DELETE requests": { request_id_list: [999, 998] },
  "POST requests": {
    message: "Studio, fuzz",
    request_email: "requester@studio.example",
    license_id: "VEDT-B2B-0001-DEMO",
    license_email: "editor1@studio.example",
    item_list: ["VI0000006"],
  },
};

/**
 * Further shapes of API writes whose body chooses a branch (each goes out like the JSON_SAMPLES entry): a payment
 * of purchase requests and a direct purchase by a business key; a purchase request by the editor's headers alone.
 */
const MORE_JSON_SAMPLES: Record<string, unknown[]> = {
  "POST payments": [
    { request_id_list: [1, 3], method: "card", agree_terms: true, agree_paid: true, idempotency_key: "fuzz-requests-0001" },
    {
      items: [{ kind: "content", id: 6 }],
      license_id: "VEDT-B2B-0001-DEMO",
      license_email: "editor1@studio.example",
      method: "card",
      agree_terms: true,
      agree_paid: true,
      idempotency_key: "fuzz-direct-0001",
    },
  ],
  "POST requests": [{ message: "Studio, fuzz", request_email: "requester@studio.example", item_list: ["VI0000006", "AU0000004"] }],
};

const HOSTILE_LEAVES: unknown[] = [
  -1,
  0,
  1e308,
  2 ** 53 + 1,
  1.5,
  "1",
  "",
  "x".repeat(10_000),
  "\u0000\uFFFF",
  null,
  [],
  {},
  true,
  "VEDT-IND-0001-DEMO",
];

function replaceLeaves(v: unknown, leaf: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => replaceLeaves(x, leaf));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceLeaves(x, leaf)]));
  return leaf;
}
function oversize(v: unknown): unknown {
  if (Array.isArray(v)) return Array.from({ length: 2000 }, () => oversize(v[0]));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, oversize(x)]));
  return v;
}
function jsonVariants(sample: unknown): string[] {
  return [
    sample,
    ...HOSTILE_LEAVES.map((l) => replaceLeaves(sample, l)),
    oversize(sample),
    { ...(sample as object), extra: { a: [1] } },
  ].map((v) => JSON.stringify(v));
}

/** The alias-sheet upload endpoints also take a file. */
const UPLOADS = [
  multipart([
    { name: "file", value: 'serial,alias\nVEDT-IND-0001-DEMO,=HYPERLINK("x")\nnot a key,\n', filename: "a.csv", type: "text/csv" },
  ]),
  multipart([{ name: "sheet", value: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), filename: "a.xlsx" }]),
  multipart([{ name: "file", value: new Uint8Array(1_100_000).fill(0x41), filename: "big.csv" }]),
  multipart([{ name: "file", value: "x", filename: "a.exe" }]),
  multipart([{ name: "file", value: `${"VEDT-A-1,".repeat(50_000)}\n`, filename: "wide.csv" }]),
];

// ---------------------------------------------------------------------------------------------------------------
// Running it

let server: PrivateServer;
/** The fuzz member: joined through /join, with a registered licence written into the private database. */
const member = { cookie: "", token: "", serial: "VEDT-FUZ-0001-TEST", hwInfo: "HW-FUZZ-0001" };
/**
 * The fuzz business representative: the demo's (app/db/seed: business@example.com, its key VEDT-B2B-0001-DEMO on
 * the editor, its seeded purchase requests 1 waiting, 2 paid, 3 expired), signed in through /login, with a purchase
 * request checkout whose key it looked up on /pay-key (the pay cookie), so the request pages reach their forms.
 * Playwright's loader cannot import the seed module (see routes.ts), so its values are written here.
 */
const business = {
  email: "business@example.com",
  password: "market1234!",
  cookie: "",
  token: "",
  pay: "",
  serial: "VEDT-B2B-0001-DEMO",
  hwInfo: "HW-DEMO-B2B-0001",
  keyEmail: "editor1@studio.example",
};
const cookiesOf = (a: Answer) =>
  a.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="));

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startPrivateServer("fuzz");
  const email = "fuzz-member@example.com";
  const joined = await send(server.baseURL, {
    method: "POST",
    path: "/join",
    headers: { "content-type": FORM, origin: server.baseURL },
    body: urlencoded({ email, password: "long-enough-pw", nickname: "Fuzz", agreeTerms: "on" }),
  });
  expect(joined.status, "join").toBe(302);
  const set = joined.headers.getSetCookie().map((c) => c.split(";")[0]);
  member.cookie = set.filter((c) => !c.endsWith("=")).join("; ");
  member.token = (set.find((c) => c.startsWith("gt=")) ?? "").slice(3);
  expect(member.token).not.toBe("");
  const db = new Database(server.dbFile);
  try {
    db.pragma("busy_timeout = 5000");
    const user = db.prepare("select id from users where email = ?").get(email) as { id: number };
    const now = new Date().toISOString();
    db.prepare(
      `insert into licenses (serial, alias, email, owner_kind, user_id, hw_info, pc_name, status, license_type, valid_until,
         product_version, sort_order, registered_at, created_at)
       values (?, 'Fuzz PC', ?, 'individual', ?, ?, 'FUZZ-PC', 'registered', 'permanent', null, '2.0.5.1.0', 0, ?, ?)`,
    ).run(member.serial, email, user.id, member.hwInfo, now, now);
  } finally {
    db.close();
  }
  // Something in the member's cart and favorites, so the signed-in forms have lines to act on.
  const api = { authorizationToken: member.token, "content-type": JSON_TYPE };
  const cart = await send(server.baseURL, {
    method: "POST",
    path: `${API_PREFIX}carts`,
    headers: api,
    body: JSON.stringify({ contents_list: [{ item_code: "VI0000006" }, { item_code: "AU0000004" }] }),
  });
  expect(cart.status, cart.text).toBe(200);
  const favorite = await send(server.baseURL, {
    method: "POST",
    path: `${API_PREFIX}interests`,
    headers: api,
    body: JSON.stringify({ item_list: ["IC0000005"] }),
  });
  expect(favorite.status, favorite.text).toBe(200);
  // The credentials the signed-in run uses open what they should (else that run would test only refusals).
  const mypage = await send(server.baseURL, { method: "GET", path: "/mypage/licenses", headers: { cookie: member.cookie } });
  expect(mypage.status, "the member's cookies open /mypage/licenses").toBe(200);
  const webview = await send(server.baseURL, {
    method: "GET",
    path: "/mypage/sw/home",
    headers: { license_id: member.serial, hw_info: member.hwInfo },
  });
  expect(webview.status, "the licence's headers open /mypage/sw/home").toBe(200);

  // The business representative: signed in, an item in its cart, a purchase request started from it and its key
  // looked up (the pay cookie then holds the request checkout with the key).
  const login = await send(server.baseURL, {
    method: "POST",
    path: "/login",
    headers: { "content-type": FORM, origin: server.baseURL },
    body: urlencoded({ email: business.email, password: business.password }),
  });
  expect(login.status, "business sign-in").toBe(302);
  business.cookie = cookiesOf(login).join("; ");
  business.token = (cookiesOf(login).find((c) => c.startsWith("gt=")) ?? "").slice(3);
  expect(business.token).not.toBe("");
  const bizApi = { authorizationToken: business.token, "content-type": JSON_TYPE };
  const added = await send(server.baseURL, {
    method: "POST",
    path: `${API_PREFIX}carts`,
    headers: bizApi,
    body: JSON.stringify({ contents_list: [{ item_code: "VI0000006" }] }),
  });
  expect(added.status, added.text).toBe(200);
  const lines = JSON.parse((await send(server.baseURL, { method: "GET", path: `${API_PREFIX}carts`, headers: bizApi })).text) as {
    data: { list: { cart_id: number }[] };
  };
  const asking = await send(server.baseURL, {
    method: "POST",
    path: "/cart",
    headers: { "content-type": FORM, origin: server.baseURL, cookie: business.cookie },
    body: urlencoded({ intent: "request", cart_id: lines.data.list.map((l) => String(l.cart_id)) }),
  });
  expect(asking.headers.get("location"), "a purchase request starts at /pay-key").toBe("/pay-key");
  const looked = await send(server.baseURL, {
    method: "POST",
    path: "/pay-key",
    headers: {
      "content-type": FORM,
      origin: server.baseURL,
      cookie: [business.cookie, ...cookiesOf(asking).filter((c) => c.startsWith("pay="))].join("; "),
    },
    body: urlencoded({ serial: business.serial, email: business.keyEmail }),
  });
  expect(looked.headers.get("location"), "the key lookup goes on to /request").toBe("/request");
  business.pay = cookiesOf(looked).find((c) => c.startsWith("pay=")) ?? "";
  for (const [path, headers] of [
    ["/mypage/purchase", { cookie: business.cookie }],
    ["/mypage/purchase/1", { cookie: business.cookie }],
    ["/request", { cookie: `${business.cookie}; ${business.pay}` }],
    ["/mypage/sw/request", { license_id: business.serial, hw_info: business.hwInfo }],
  ] as const) {
    const opened = await send(server.baseURL, { method: "GET", path, headers });
    expect(opened.status, `the business's credentials open ${path}`).toBe(200);
  }
});

test.afterAll(async () => {
  if (!server) return;
  // A line logged after the test that caused it had ended (a render finishing late) counts too.
  await new Promise((r) => setTimeout(r, 500));
  const logged = server.errorsSince(0);
  await server.stop();
  expect(logged.slice(0, 20), "error-level lines anywhere in the server's log").toEqual([]);
});

/** Pages whose purpose is to say the service is down: they answer 503 by design (and must render, not fail). */
const DESIGNED_503 = new Set(["routes/errorservice", "routes/servicecheck"]);

type Who = "visitor" | "member" | "business";
const credentials = (who: Who, api: boolean): Record<string, string> =>
  who === "visitor"
    ? {}
    : who === "business"
      ? api
        ? { authorizationToken: business.token, license_id: business.serial, hw_info: business.hwInfo }
        : { cookie: `${business.cookie}; ${business.pay}`, license_id: business.serial, hw_info: business.hwInfo }
      : api
        ? { authorizationToken: member.token, license_id: member.serial, hw_info: member.hwInfo }
        : { cookie: member.cookie, license_id: member.serial, hw_info: member.hwInfo };

interface RunResult {
  problems: string[];
  count: number;
  /** How many answers had each status, for the log: a run that reached no route would show it. */
  statuses: Map<number, number>;
}

/** Sends every request and answers the problems found: 5xx answers, stack traces, a refusal other than the right one. */
async function run(requests: Sent[], width = 4): Promise<RunResult> {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  await pool(requests, width, async (r) => {
    let a: Answer;
    try {
      a = await send(server.baseURL, r);
    } catch (error) {
      problems.push(`${r.label ?? `${r.method} ${r.path}`} → no answer (${String(error)})`);
      return;
    }
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    // FUZZ_DEBUG=<file> lists every answer (status, request): for reading what the corpus reached.
    if (process.env.FUZZ_DEBUG)
      fs.appendFileSync(process.env.FUZZ_DEBUG, `${a.status} ${r.method} ${r.path.slice(0, 150)} | ${r.label?.slice(0, 150)}\n`);
    const label = r.label ?? `${r.method} ${r.path.slice(0, 200)}`;
    const designed = a.status === 503 && r.method === "GET" && DESIGNED_503.has(r.route ?? "");
    if (a.status >= 500 && !designed) problems.push(`${label} → ${a.status} ${a.text.slice(0, 200).replace(/\s+/g, " ")}`);
    else if (r.expect !== undefined && a.status !== r.expect) problems.push(`${label} → ${a.status}, expected ${r.expect}`);
    const trace = traceIn(a);
    if (trace) problems.push(`${label} → ${a.status} with ${trace}`);
  });
  return { problems, count: requests.length, statuses };
}

const merge = (...results: RunResult[]): RunResult => {
  const statuses = new Map<number, number>();
  for (const r of results) for (const [k, n] of r.statuses) statuses.set(k, (statuses.get(k) ?? 0) + n);
  return { problems: results.flatMap((r) => r.problems), count: results.reduce((n, r) => n + r.count, 0), statuses };
};

const histogram = (r: RunResult) =>
  [...r.statuses]
    .sort(([a], [b]) => a - b)
    .map(([k, n]) => `${k}: ${n}`)
    .join(", ");

const short = (s: string) => (s.length > 120 ? `${s.slice(0, 100)}…(${s.length})` : s);

/**
 * How much of the corpus each caller gets. The visitor and the caller without credentials get all of it; the
 * signed-in run repeats a slice of it (its point is reaching the code behind the sign-in and licence checks).
 */
interface Budget {
  queries: number; // rotations of hostile query values (plus the fixed special queries when `specials`)
  specials: boolean;
  segments: number; // hostile values per path segment
  garbageHeaders: boolean;
  genericBodies: (b: (typeof GENERIC_BODIES)[number]) => boolean;
  formVariants: number; // per form sample (the sample itself first)
  jsonVariants: number; // per JSON sample
}
const FULL: Budget = {
  queries: HOSTILE_VALUES.length,
  specials: true,
  segments: HOSTILE_SEGMENTS.length,
  garbageHeaders: true,
  genericBodies: () => true,
  formVariants: Number.POSITIVE_INFINITY,
  jsonVariants: Number.POSITIVE_INFINITY,
};
const SIGNED_IN: Budget = {
  queries: 2,
  specials: false,
  segments: 4,
  garbageHeaders: false,
  genericBodies: (b) => ["no body", "urlencoded invalid utf-8", "multipart wrong fields", "json {", "json proto"].includes(b.label),
  formVariants: 4,
  jsonVariants: 5,
};
/** Bodies a page guard refuses before any route (415): a few of them are enough for pages. */
const PAGE_REFUSED = new Set(["empty json", "json null", "json array", "json number", "json deep", "json invalid utf-8", "xml"]);
/** The one right answer of a page write with each of these bodies, whatever the route (the server's guards). */
const PAGE_BODY_STATUS: Record<string, number> = {
  "no body": 415,
  "text/plain": 415,
  "json {": 415,
  "json proto": 415,
  "multipart unreadable": 400,
  "multipart other boundary": 400,
};
/** Routes whose writes come from other servers (signed webhooks): no Origin or form rules apply to them. */
const SERVER_TO_SERVER_ROUTES = new Set(["routes/webhooks.payments.$gateway"]);
const EVIL_ORIGIN = "https://evil.example";

/**
 * Query names the root loader answers with a redirect before any route's loader runs (the language switch, the
 * permalink restore). Kept out of the rotated queries, or no page loader would ever see a hostile value; the fixed
 * special queries exercise them.
 */
const ROOT_REDIRECT_NAMES = new Set(["language", "user_type"]);

function pageRequests(routes: PageRoute[], allNames: string[], who: Who, budget: Budget): Sent[] {
  const out: Sent[] = [];
  const names = allNames.filter((n) => !ROOT_REDIRECT_NAMES.has(n));
  const origin = server.baseURL;
  for (const [index, r] of routes.entries()) {
    const plausible = PLAUSIBLE_PARAMS[r.id] ?? {};
    const base = fill(r.pattern, plausible);
    const dataPath = `${base === "/" ? "/_root" : base}.data`;
    const creds = credentials(who, false);
    const get = (path: string, label: string, headers: Record<string, string> = {}) =>
      out.push({ method: "GET", path, headers: { ...creds, ...headers }, label: `[${who}] GET ${label}`, route: r.id });
    if (r.loader) {
      get(base, base);
      const queries = hostileQueries(
        names,
        r.queryNames.filter((n) => !ROOT_REDIRECT_NAMES.has(n)),
        budget.queries,
      );
      for (const q of budget.specials ? queries : queries.slice(0, budget.queries)) get(`${base}?${q}`, `${base}?${short(q)}`);
      for (const p of r.params)
        for (const h of HOSTILE_SEGMENTS.slice(0, budget.segments))
          get(fill(r.pattern, { ...plausible, [p]: h }), `${r.pattern} with ${p}=${short(h)}`);
      // Remix's single-fetch data requests for the same address.
      get(`${dataPath}?_routes=%00,root,nope,${encodeURIComponent(r.id)}`, `${base}.data?_routes=garbage`);
      if (budget.garbageHeaders)
        get(base, `${base} with garbage headers #${(index % GARBAGE_HEADERS.length) + 1}`, GARBAGE_HEADERS[index % GARBAGE_HEADERS.length]);
    }
    // Writes: a same-origin Origin so they pass the cross-origin guard and reach the action (or Remix's 405).
    const write = (method: string, path: string, label: string, type: string | undefined, body: string | Uint8Array | undefined) =>
      out.push({
        method,
        path,
        headers: { ...creds, origin, ...(type ? { "content-type": type } : {}) },
        body,
        label: `[${who}] ${method} ${path.slice(0, 120)} ${label}`,
        route: r.id,
      });
    const guarded = !SERVER_TO_SERVER_ROUTES.has(r.id);
    // What the server refuses before any route runs, on every route: the right 4xx, not just any answer.
    if (guarded) {
      const refused = (method: string, label: string, headers: Record<string, string>, status: number) =>
        out.push({
          method,
          path: base,
          headers: { ...creds, "content-type": FORM, ...headers },
          body: method === "TRACE" ? undefined : "intent=add&code=VI0000006",
          label: `[${who}] ${method} ${base} ${label}`,
          route: r.id,
          expect: status,
        });
      refused("POST", "from another site's Origin", { origin: EVIL_ORIGIN }, 403);
      refused("POST", "with Origin null", { origin: "null" }, 403);
      refused("POST", "with Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }, 403);
      refused("DELETE", "from another site's Origin", { origin: EVIL_ORIGIN }, 403);
      for (const method of ["TRACE", "PATCH", "PROPFIND"]) refused(method, "(a method the store does not serve)", { origin }, 405);
    }
    if (!r.action) {
      if (budget.garbageHeaders) write("POST", base, "form to a route without an action", FORM, "intent=add&id=1");
      continue;
    }
    for (const b of GENERIC_BODIES.filter((g) => budget.genericBodies(g) && !PAGE_REFUSED.has(g.label))) {
      write("POST", base, b.label, b.type, b.body);
      if (guarded && PAGE_BODY_STATUS[b.label] !== undefined) out[out.length - 1].expect = PAGE_BODY_STATUS[b.label];
    }
    const samples = FORM_SAMPLES[r.id] ?? [];
    for (const sample of samples)
      for (const body of formVariants(sample).slice(0, budget.formVariants)) write("POST", base, `form ${short(body)}`, FORM, body);
    if (samples.length && budget.specials) {
      const form = urlencoded(samples[0]);
      write("PUT", base, "form", FORM, form);
      write("DELETE", base, "form", FORM, form);
      write("POST", dataPath, "single-fetch action", FORM, form);
      write("POST", `${base}?index&_data=${encodeURIComponent(r.id)}`, "legacy _data", FORM, form);
      out[out.length - 1].expect = 400;
      for (const p of r.params) write("POST", fill(r.pattern, { ...plausible, [p]: "%FF%00" }), `form with ${p}=%FF%00`, FORM, form);
    }
  }
  return out;
}

function apiRequests(endpoints: ApiEndpoint[], names: string[], who: Who, budget: Budget): Sent[] {
  const out: Sent[] = [];
  for (const [index, e] of endpoints.entries()) {
    const plausible = PLAUSIBLE_API_PARAMS[e.path] ?? {};
    const base = API_PREFIX + fill(e.path, plausible);
    const creds = credentials(who, true);
    const route = `${e.method} ${e.path}`;
    const push = (path: string, label: string, headers: Record<string, string> = {}, body?: string | Uint8Array) =>
      out.push({
        method: e.method,
        path,
        headers: { ...creds, language: "en", ...headers },
        body,
        label: `[${who}] ${e.method} ${label}`,
        route,
      });
    if (e.method === "GET") {
      push(base, base);
      const queries = hostileQueries(names, [], budget.queries);
      for (const q of budget.specials ? queries : queries.slice(0, budget.queries)) push(`${base}?${q}`, `${base}?${short(q)}`);
      if (budget.garbageHeaders)
        push(
          base,
          `${base} with garbage headers #${(index % GARBAGE_HEADERS.length) + 1}`,
          GARBAGE_HEADERS[index % GARBAGE_HEADERS.length],
        );
    } else {
      for (const b of GENERIC_BODIES.filter(budget.genericBodies))
        push(base, `${base} ${b.label}`, b.type ? { "content-type": b.type } : {}, b.body);
      for (const sample of [JSON_SAMPLES[route], ...(MORE_JSON_SAMPLES[route] ?? [])])
        for (const body of jsonVariants(sample).slice(0, budget.jsonVariants))
          push(base, `${base} ${short(body)}`, { "content-type": JSON_TYPE }, body);
      if (e.path.endsWith("fileupload") || e.path === "support/qna")
        for (const [i, u] of UPLOADS.entries()) push(base, `${base} upload #${i + 1}`, { "content-type": MULTIPART }, u);
      if (budget.garbageHeaders)
        push(
          base,
          `${base} with garbage headers #${(index % GARBAGE_HEADERS.length) + 1}`,
          { ...GARBAGE_HEADERS[index % GARBAGE_HEADERS.length], "content-type": JSON_TYPE },
          "{}",
        );
    }
    // Refused before the router: a method the store does not serve, and a write from another site's page that
    // carries only cookies (no authorizationToken header).
    out.push({ method: "PROPFIND", path: base, headers: creds, label: `[${who}] PROPFIND ${base}`, route, expect: 405 });
    if (e.method !== "GET" && who === "visitor")
      out.push({
        method: e.method,
        path: base,
        headers: { cookie: "ngt=fuzz-cart-token", origin: EVIL_ORIGIN, "content-type": JSON_TYPE },
        body: JSON.stringify(JSON_SAMPLES[route]),
        label: `[${who}] ${e.method} ${base} from another site's Origin with a cookie`,
        route,
        expect: 403,
      });
    for (const p of e.params)
      for (const h of HOSTILE_SEGMENTS.slice(0, budget.segments))
        push(
          API_PREFIX + fill(e.path, { ...plausible, [p]: h }),
          `${e.path} with ${p}=${short(h)}`,
          e.method === "GET" ? {} : { "content-type": JSON_TYPE },
          e.method === "GET" ? undefined : "{}",
        );
  }
  // Paths the table does not hold, and methods it does not serve.
  for (const [method, path] of [
    ["GET", `${API_PREFIX}`],
    ["GET", `${API_PREFIX}nope/%FF`],
    ["PATCH", `${API_PREFIX}carts`],
    ["HEAD", `${API_PREFIX}contents`],
    ["OPTIONS", `${API_PREFIX}carts`],
    ["GET", `${API_PREFIX}contents/`],
    ["GET", `${API_PREFIX}..%2F..%2Fhealthz`],
    ["GET", `${API_PREFIX}${"a/".repeat(500)}`],
  ])
    out.push({
      method,
      path,
      headers: credentials(who, true),
      label: `[${who}] ${method} ${path.slice(0, 80)}`,
      expect: method === "PATCH" ? 405 : undefined,
    });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The one right answer, where it is known: the business customers' routes

interface Known {
  who: Who;
  method: "GET" | "POST" | "DELETE";
  path: string;
  form?: Record<string, string | string[]>;
  json?: unknown;
  status: number;
}
const agreed = { method: "card", agree_terms: true, agree_paid: true };
const asked = (more: Record<string, unknown>) => ({
  message: "Studio, fuzz",
  request_email: "requester@studio.example",
  item_list: ["VI0000006"],
  ...more,
});
/**
 * What the purchase request routes must answer each caller (sent first in its run, before the corpus's writes
 * change anything): the sign-in and business-only refusals, unknown ids and quote links, the spec's refusals of
 * paid, expired and other keys' requests. The seed's quote links and requests (1 waiting, 2 paid, 3 expired) are the
 * demo business's (app/db/seed/requests.ts).
 */
const KNOWN_ANSWERS: Known[] = [
  // A visitor: the representative's pages ask to sign in, the API answers 401; a quote opens by its link alone.
  { who: "visitor", method: "GET", path: "/mypage/purchase", status: 302 },
  { who: "visitor", method: "GET", path: "/mypage/purchase/1", status: 302 },
  { who: "visitor", method: "GET", path: "/mypage/estimate?id=1", status: 302 },
  { who: "visitor", method: "GET", path: "/mypage/estimate", status: 404 },
  { who: "visitor", method: "GET", path: "/mypage/estimate?token=not-a-quote-link-of-this-store-000", status: 404 },
  { who: "visitor", method: "GET", path: "/mypage/estimate-pdf?token=not-a-quote-link-of-this-store-000", status: 404 },
  { who: "visitor", method: "GET", path: "/mypage/estimate?token=demo-quote-expired-5Jd4Bf7Gq2Ne", status: 404 },
  { who: "visitor", method: "GET", path: "/mypage/estimate?token=demo-quote-waiting-7Qm2Xc9Lr4Tz", status: 200 },
  { who: "visitor", method: "GET", path: "/mypage/estimate-pdf?token=demo-quote-paid-3Hk8Vn1Pw6Ys", status: 200 },
  { who: "visitor", method: "GET", path: "/mypage/sw/request", status: 401 },
  // The seeded paid request's order was never a gateway's payment: its return is the caller's error, not the store's.
  { who: "visitor", method: "GET", path: "/pay/return?gateway=sandbox&paymentId=MKT-DEMO-REQ00002", status: 302 },
  { who: "visitor", method: "GET", path: `${API_PREFIX}requests`, status: 401 },
  { who: "visitor", method: "GET", path: `${API_PREFIX}requests/count`, status: 401 },
  { who: "visitor", method: "GET", path: `${API_PREFIX}requests/1`, status: 401 },
  { who: "visitor", method: "DELETE", path: `${API_PREFIX}requests`, json: { request_id_list: [1] }, status: 401 },
  {
    who: "visitor",
    method: "POST",
    path: `${API_PREFIX}requests`,
    json: asked({ license_id: "VEDT-B2B-0001-DEMO", license_email: "not-the-key-email@example.com" }),
    status: 404,
  },
  {
    who: "visitor",
    method: "POST",
    path: `${API_PREFIX}requests`,
    json: asked({ license_id: "VEDT-IND-0001-DEMO", license_email: "member@example.com" }),
    status: 409,
  },
  {
    who: "visitor",
    method: "POST",
    path: `${API_PREFIX}requests`,
    json: asked({ license_id: "VEDT-B2B-0099-DEMO", license_email: "editor@outsider.example" }),
    status: 409,
  },
  { who: "visitor", method: "POST", path: `${API_PREFIX}requests`, json: asked({}), status: 400 },
  {
    who: "visitor",
    method: "POST",
    path: `${API_PREFIX}payments`,
    json: {
      items: [{ kind: "content", id: 6 }],
      license_id: "VEDT-B2B-0001-DEMO",
      license_email: "not-the-key-email@example.com",
      ...agreed,
      idempotency_key: "fuzz-known-0001",
    },
    status: 404,
  },
  {
    who: "visitor",
    method: "POST",
    path: `${API_PREFIX}payments`,
    json: { request_id_list: [1], ...agreed, idempotency_key: "fuzz-known-0002" },
    status: 401,
  },
  // An individual member: purchase requests are for business representatives; its editor's key is individual.
  { who: "member", method: "GET", path: "/mypage/purchase", status: 403 },
  { who: "member", method: "POST", path: "/mypage/purchase", form: { intent: "delete", request: ["1"] }, status: 403 },
  { who: "member", method: "GET", path: "/mypage/purchase/1", status: 404 },
  { who: "member", method: "POST", path: "/mypage/purchase/1", form: { intent: "pay" }, status: 404 },
  { who: "member", method: "GET", path: "/mypage/estimate?id=1", status: 404 },
  { who: "member", method: "GET", path: "/mypage/estimate-pdf?id=1", status: 404 },
  {
    who: "member",
    method: "POST",
    path: "/mypage/sw/request",
    form: { cart_id: ["1"], request_email: "requester@studio.example", message: "fuzz" },
    status: 409,
  },
  { who: "member", method: "GET", path: `${API_PREFIX}requests`, status: 403 },
  { who: "member", method: "GET", path: `${API_PREFIX}requests/1`, status: 403 },
  { who: "member", method: "GET", path: `${API_PREFIX}requests/count`, status: 200 },
  { who: "member", method: "DELETE", path: `${API_PREFIX}requests`, json: { request_id_list: [1] }, status: 403 },
  {
    who: "member",
    method: "POST",
    path: `${API_PREFIX}payments`,
    json: { request_id_list: [1], ...agreed, idempotency_key: "fuzz-known-0003" },
    status: 404,
  },
  // The representative: its own requests in any state, unknown ids not found, paid and expired ones not payable.
  { who: "business", method: "GET", path: "/mypage/purchase?state=paid&from=2026-02-31&to=x&page=-5", status: 200 },
  { who: "business", method: "GET", path: "/mypage/purchase/3", status: 200 },
  { who: "business", method: "GET", path: "/mypage/purchase/999999", status: 404 },
  { who: "business", method: "GET", path: "/mypage/purchase/abc", status: 404 },
  { who: "business", method: "GET", path: "/mypage/estimate?id=2", status: 200 },
  { who: "business", method: "GET", path: "/mypage/estimate-pdf?id=3", status: 200 },
  { who: "business", method: "GET", path: "/mypage/estimate?id=999999", status: 404 },
  { who: "business", method: "GET", path: "/mypage/estimate?id=-1", status: 404 },
  { who: "business", method: "POST", path: "/mypage/purchase/2", form: { intent: "pay" }, status: 409 },
  { who: "business", method: "POST", path: "/mypage/purchase/3", form: { intent: "pay" }, status: 409 },
  { who: "business", method: "POST", path: "/mypage/purchase/999999", form: { intent: "delete" }, status: 404 },
  { who: "business", method: "POST", path: "/mypage/purchase", form: { intent: "pay", request: ["1", "2"] }, status: 409 },
  { who: "business", method: "POST", path: "/mypage/purchase", form: { intent: "pay", request: ["abc"] }, status: 400 },
  { who: "business", method: "POST", path: "/mypage/purchase", form: { intent: "pay", request: ["999999"] }, status: 404 },
  { who: "business", method: "GET", path: `${API_PREFIX}requests?state=paid&limit=5`, status: 200 },
  { who: "business", method: "GET", path: `${API_PREFIX}requests?state=nope`, status: 400 },
  { who: "business", method: "GET", path: `${API_PREFIX}requests/2`, status: 200 },
  { who: "business", method: "GET", path: `${API_PREFIX}requests/999999`, status: 404 },
  { who: "business", method: "GET", path: `${API_PREFIX}requests/count`, status: 200 },
  {
    who: "business",
    method: "POST",
    path: `${API_PREFIX}payments`,
    json: { request_id_list: [2], ...agreed, idempotency_key: "fuzz-known-0004" },
    status: 409,
  },
  {
    who: "business",
    method: "POST",
    path: `${API_PREFIX}payments`,
    json: { request_id_list: [999999], ...agreed, idempotency_key: "fuzz-known-0005" },
    status: 404,
  },
];

/** Whether an address is one of the store's (a page route's pattern or an API endpoint's). */
function knownPath(path: string, routes: PageRoute[], endpoints: ApiEndpoint[]) {
  const matches = (pattern: string) =>
    new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+").replace(/\*$/, ".*")}$`).test(path) && !pattern.endsWith("*");
  return routes.some((r) => matches(r.pattern)) || endpoints.some((e) => matches(API_PREFIX + e.path));
}

/** The caller's known answers as requests (a same-site Origin on writes, so they reach the route). */
const knownRequests = (who: Who): Sent[] =>
  KNOWN_ANSWERS.filter((k) => k.who === who).map((k) => {
    const api = k.path.startsWith(API_PREFIX);
    const type = k.form ? FORM : k.json !== undefined ? JSON_TYPE : undefined;
    return {
      method: k.method,
      path: k.path,
      headers: {
        ...credentials(who, api),
        ...(api ? { language: "en" } : {}),
        ...(k.method === "GET" ? {} : { origin: server.baseURL }),
        ...(type ? { "content-type": type } : {}),
      },
      body: k.form ? urlencoded(k.form) : k.json !== undefined ? JSON.stringify(k.json) : undefined,
      label: `[${who}] ${k.method} ${k.path} (its one right answer)`,
      expect: k.status,
    };
  });

/** Writes that end the member's session or account: sent last, after everything else has run signed in. */
const TERMINAL = (r: Sent) =>
  /^\/(logout|mypage\/withdraw)\b/.test(r.path) || (r.method === "DELETE" && r.path.startsWith(`${API_PREFIX}users`));

/**
 * Requests that make the server read a licence alias sheet. A process reads two at a time and asks the next one to
 * come back later (503 BUSY, by design: docs/security.md, Uploads), so the fuzzer sends these one at a time rather
 * than overload the parser itself; any 5xx they get then is a finding.
 */
const READS_A_SHEET = (r: Sent) =>
  /^(\/mypage\/licenses|\/api\/v1\/users\/licenses\/aliases\/fileupload)(\?|$)/.test(r.path) &&
  (r.headers?.["content-type"] ?? "").startsWith("multipart/");

function expectClean(result: { problems: string[]; count: number }, mark: number, what: string) {
  const logged = server.errorsSince(mark);
  if (process.env.FUZZ_LOG) fs.writeFileSync(process.env.FUZZ_LOG, server.lines().join("\n"));
  expect.soft(result.problems.slice(0, 60), `${what}: ${result.problems.length} of ${result.count} requests answered badly`).toEqual([]);
  expect.soft(logged.slice(0, 20), `${what}: error-level lines in the server's log`).toEqual([]);
}

test("every route and action is described for the fuzzer", async () => {
  const routes = await pageRoutes();
  const endpoints = await apiEndpoints();
  expect(await unfilledParams(), "segments with no plausible value in routes.ts").toEqual([]);
  const missingForms = routes.filter((r) => r.action && !isApiDoor(r) && !FORM_SAMPLES[r.id]).map((r) => r.id);
  expect(missingForms, "page actions with no FORM_SAMPLES entry").toEqual([]);
  const missingJson = endpoints.filter((e) => e.method !== "GET" && JSON_SAMPLES[`${e.method} ${e.path}`] === undefined);
  expect(
    missingJson.map((e) => `${e.method} ${e.path}`),
    "API writes with no JSON_SAMPLES entry",
  ).toEqual([]);
  // Stale entries (a route renamed or removed) are mistakes too.
  expect(Object.keys(FORM_SAMPLES).filter((id) => !routes.some((r) => r.id === id && r.action))).toEqual([]);
  expect(
    [...Object.keys(JSON_SAMPLES), ...Object.keys(MORE_JSON_SAMPLES)].filter((k) => !endpoints.some((e) => `${e.method} ${e.path}` === k)),
  ).toEqual([]);
  expect(KNOWN_ANSWERS.map((k) => k.path.split("?")[0]).filter((p) => !knownPath(p, routes, endpoints))).toEqual([]);
  // Both trees and the resource routes are there.
  const patterns = routes.map((r) => r.pattern);
  for (const p of ["/", "/cart", "/mypage/sw", "/mypage/sw/pay/:id", "/files/:token", "/mypage/certificate-pdf/:id", "/api/v1/*", "/*"])
    expect(patterns).toContain(p);
  expect(endpoints.length).toBeGreaterThan(40);
});

test("page routes answer hostile addresses, headers and bodies from a visitor without a 5xx or a stack trace", async () => {
  test.setTimeout(480_000); // thousands of requests: minutes on a busy shared machine
  const mark = server.lines().length;
  const routes = (await pageRoutes()).filter((r) => !isApiDoor(r));
  const requests = pageRequests(routes, await allQueryNames(), "visitor", FULL);
  const result = merge(await run(knownRequests("visitor")), await run(requests));
  console.log(`pages as a visitor: ${routes.length} routes, ${result.count} requests (${histogram(result)})`);
  expectClean(result, mark, "pages as a visitor");
});

test("API endpoints answer hostile queries, headers and bodies from a caller without credentials", async () => {
  test.setTimeout(480_000); // thousands of requests: minutes on a busy shared machine
  const mark = server.lines().length;
  const endpoints = await apiEndpoints();
  const requests = apiRequests(endpoints, await allQueryNames(), "visitor", FULL);
  const result = await run(requests);
  console.log(`API without credentials: ${endpoints.length} endpoints, ${result.count} requests (${histogram(result)})`);
  expectClean(result, mark, "API without credentials");
});

test("signed in with a licence (cookies, authorizationToken, editor headers), pages and API answer the corpus cleanly", async () => {
  test.setTimeout(480_000); // thousands of requests: minutes on a busy shared machine
  const mark = server.lines().length;
  const routes = (await pageRoutes()).filter((r) => !isApiDoor(r));
  const names = await allQueryNames();
  const requests = [...apiRequests(await apiEndpoints(), names, "member", SIGNED_IN), ...pageRequests(routes, names, "member", SIGNED_IN)];
  // The requests that end the session come last, one at a time, after everything else has run signed in; the
  // alias sheets go one at a time too.
  const first = requests.filter((r) => !TERMINAL(r) && !READS_A_SHEET(r));
  const sheets = requests.filter((r) => !TERMINAL(r) && READS_A_SHEET(r));
  const last = requests.filter(TERMINAL);
  const result = merge(await run(knownRequests("member")), await run(first), await run(sheets, 1), await run(last, 1));
  console.log(`signed in: ${result.count} requests, ${sheets.length} of them alias sheets (${histogram(result)})`);
  expectClean(result, mark, "signed in");
});

/** The business customers' routes, where a representative and its business key reach code no other caller does. */
const BUSINESS_PAGES = new Set([
  "/",
  "/cart",
  "/pay01",
  "/pay02",
  "/pay03",
  "/pay-key",
  "/request",
  "/requestComp",
  "/mypage/purchase",
  "/mypage/purchase/:id",
  "/mypage/estimate",
  "/mypage/estimate-pdf",
  "/payComp",
  "/mypage/sw/request",
]);
const BUSINESS_API = (e: ApiEndpoint) => e.path.startsWith("requests") || e.path === "payments" || e.path === "carts";

test("signed in as a business representative, its key on the editor and a request checkout, the business routes answer cleanly", async () => {
  test.setTimeout(480_000); // thousands of requests: minutes on a busy shared machine
  const mark = server.lines().length;
  const routes = (await pageRoutes()).filter((r) => BUSINESS_PAGES.has(r.pattern));
  const endpoints = (await apiEndpoints()).filter(BUSINESS_API);
  expect(routes.length, "the business pages are in the route table").toBe(BUSINESS_PAGES.size);
  const names = await allQueryNames();
  const requests = [...apiRequests(endpoints, names, "business", SIGNED_IN), ...pageRequests(routes, names, "business", SIGNED_IN)];
  const result = merge(await run(knownRequests("business")), await run(requests));
  console.log(`business: ${routes.length} pages, ${endpoints.length} endpoints, ${result.count} requests (${histogram(result)})`);
  expectClean(result, mark, "business");
});

// ---------------------------------------------------------------------------------------------------------------
// The server level: what fetch cannot send (a Host header, raw request lines, broken framing).

/**
 * Writes `text` on a fresh connection and reads the answer until the server closes. With `leaveAfterMs`, the
 * client goes away that long after writing (a request whose body never completes): no answer is expected then.
 */
async function rawRequest(
  port: number,
  text: string | Buffer,
  leave?: { afterMs?: number; halfClose?: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    if (leave?.afterMs) setTimeout(() => socket.destroy(), leave.afterMs);
    const chunks: Buffer[] = [];
    const done = () => {
      const all = Buffer.concat(chunks).toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(all);
      resolve({ status: m ? Number(m[1]) : 0, body: all });
    };
    socket.setTimeout(5000, () => socket.destroy());
    socket.on("data", (c) => chunks.push(c));
    socket.on("close", done);
    socket.on("error", () => undefined);
    // Normally written without half-closing: the server answers, then closes (Connection: close). A client that
    // half-closes at once is one that went away: the server may drop the answer.
    if (leave?.halfClose) socket.end(text);
    else socket.write(text);
  });
}

test("the server refuses malformed hosts, request lines and framing with a 4xx, never a 5xx or a trace", async () => {
  test.setTimeout(180_000);
  const mark = server.lines().length;
  const port = Number(new URL(server.baseURL).port);
  const publicOrigin = server.baseURL;
  const form = "intent=add&code=VI0000006";
  const post = (host: string, origin: string, path = "/cart") =>
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nContent-Type: ${FORM}\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`;
  const get = (host: string | null, path = "/", extra = "") =>
    `GET ${path} HTTP/1.1\r\n${host === null ? "" : `Host: ${host}\r\n`}${extra}Connection: close\r\n\r\n`;
  // With `status`, the one right answer (a malformed Host is a 400: RFC 9112, section 3.2).
  const cases: [string, string | Buffer, { afterMs?: number; halfClose?: boolean; status?: number }?][] = [
    ["empty Host", get(""), { status: 400 }],
    ["foreign Host", get("evil.example")],
    ["Host with a space", get("a b"), { status: 400 }],
    ["Host with a bracket", get("[::1"), { status: 400 }],
    ["Host with a bad escape", get("%%"), { status: 400 }],
    ["Host with a bad port", get("127.0.0.1:99999"), { status: 400 }],
    ["Host with a path", get("evil.example/x?y"), { status: 400 }],
    ["Host with userinfo", get("user:pass@evil.example"), { status: 400 }],
    ["Host of 8 KB", get("h".repeat(8000))],
    [
      "Host with raw bytes",
      Buffer.concat([Buffer.from("GET / HTTP/1.1\r\nHost: \xe9\xff.", "latin1"), Buffer.from("\r\nConnection: close\r\n\r\n")]),
      { status: 400 },
    ],
    ["two Host headers", get("a.example", "/", "Host: b.example\r\n"), { status: 400 }],
    ["no Host (HTTP/1.1)", get(null), { status: 400 }],
    // Unusual but well-formed Hosts are served (the page is addressed to PUBLIC_URL whatever the Host says).
    ["IPv6 Host", get(`[::1]:${port}`), { status: 200 }],
    ["Host with the default port, in capitals", get("LOCALHOST:80"), { status: 200 }],
    ["Host with a trailing dot", get("localhost."), { status: 200 }],
    ["no Host (HTTP/1.0)", "GET / HTTP/1.0\r\n\r\n"],
    [
      "foreign Host on a webview page",
      get("evil.example", "/mypage/sw/home", "license_id: VEDT-IND-0001-DEMO\r\nhw_info: HW-DEMO-IND-0001\r\n"),
    ],
    ["foreign Host on the API", get("evil.example", "/api/v1/contents?space=video")],
    ["foreign Host on a detail page", get("evil.example", "/contents/video?code=VI0000006")],
    ["foreign Host and matching Origin, page form", post("evil.example", "http://evil.example")],
    ["foreign Host, the store's Origin, page form", post("evil.example", publicOrigin)],
    ["empty Host and Origin null", post("", "null"), { status: 400 }],
    ["Origin not a URL", post(`127.0.0.1:${port}`, "not a url"), { status: 403 }],
    ["Origin with a path", post(`127.0.0.1:${port}`, `${publicOrigin}/x`)],
    ["absolute-form target", `GET http://evil.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`],
    ["scheme-relative target", get(`127.0.0.1:${port}`, "//evil.example/x")],
    ["backslash target", get(`127.0.0.1:${port}`, "/\\evil.example")],
    ["invalid escape in the path", get(`127.0.0.1:${port}`, "/%ZZ"), { status: 400 }],
    ["NUL in the path", get(`127.0.0.1:${port}`, "/contents/%00")],
    ["dot segments", get(`127.0.0.1:${port}`, "/media/..%2f..%2fmarket.sqlite")],
    ["dot segments in build", get(`127.0.0.1:${port}`, "/build/%2e%2e/%2e%2e/server.ts")],
    ["asterisk target", `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`],
    ["query over 16 KB", get(`127.0.0.1:${port}`, `/?a=${"x".repeat(20_000)}`), { status: 431 }],
    ["lowercase method", `get / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, { status: 400 }],
    ["unknown method", `PROPFIND / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, { status: 405 }],
    ["TRACE", `TRACE / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, { status: 405 }],
    [
      "PATCH a page",
      `PATCH /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${publicOrigin}\r\nConnection: close\r\n\r\n`,
      { status: 405 },
    ],
    [
      "bad Content-Length",
      `POST /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: abc\r\nConnection: close\r\n\r\n`,
      { status: 400 },
    ],
    [
      "short body",
      `POST /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${publicOrigin}\r\nContent-Type: ${FORM}\r\nContent-Length: 100\r\nConnection: close\r\n\r\nintent=add`,
      { afterMs: 300 },
    ],
    [
      "broken chunks",
      `POST /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${publicOrigin}\r\nContent-Type: ${FORM}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nintent\r\n0\r\n\r\n`,
      { status: 400 },
    ],
    [
      "chunked API body cut off",
      `POST /api/v1/carts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{"con`,
      { afterMs: 300 },
    ],
    ["header without a colon", `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nbroken header\r\nConnection: close\r\n\r\n`, { status: 400 }],
    [
      "declared 9 MB form",
      `POST /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${publicOrigin}\r\nContent-Type: ${FORM}\r\nContent-Length: 9437184\r\nConnection: close\r\n\r\nintent=add`,
      { afterMs: 300, status: 413 },
    ],
    [
      "multipart without boundary",
      `POST /mypage/licenses HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${publicOrigin}\r\nContent-Type: multipart/form-data\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxx`,
      { status: 400 },
    ],
    [
      "Sec-Fetch-Site cross-site",
      `POST /cart HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nSec-Fetch-Site: cross-site\r\nContent-Type: ${FORM}\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`,
      { status: 403 },
    ],
    [
      "X-Forwarded-Host and Proto",
      get(`127.0.0.1:${port}`, "/", "X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: gopher\r\nX-Forwarded-For: ::zz\r\n"),
    ],
    // Clients that leave while the page is still streaming (signed-in and webview pages are never cached).
    ...["/mypage/sw/home", "/cart", "/search/all?keywords=a", "/contents/video?code=VI0000006"].flatMap((path) =>
      [1, 2].map((n): [string, string, { halfClose: true }] => [
        `leaves during ${path} #${n}`,
        get(`127.0.0.1:${port}`, path, "Cookie: ngt=x; gt=y\r\nlicense_id: VEDT-IND-0001-DEMO\r\nhw_info: HW-DEMO-IND-0001\r\n"),
        { halfClose: true },
      ]),
    ),
    ["manifest with hostile paths", get(`127.0.0.1:${port}`, "/__manifest?p=%2F..%2F&p=%FF&p=/mypage/sw/pay/%00&version=x")],
  ];
  const problems: string[] = [];
  for (const [name, text, leave] of cases) {
    const a = await rawRequest(port, text, leave);
    const leaves = Boolean(leave?.afterMs || leave?.halfClose);
    if ((a.status === 0 && !leaves) || a.status >= 500) problems.push(`${name} → ${a.status || "no status line"} ${a.body.slice(0, 200)}`);
    else if (leave?.status !== undefined && a.status !== leave.status) problems.push(`${name} → ${a.status}, expected ${leave.status}`);
    const trace = traceIn({ status: a.status, headers: new Headers(), type: "text/plain", text: a.body });
    if (trace) problems.push(`${name} → ${trace}`);
    if (/https?:\/\/evil\.example|^Location:\s*(\/\/|\/\\)/im.test(a.body)) problems.push(`${name} → the answer points at another site`);
    if (/SQLite format 3/.test(a.body)) problems.push(`${name} → served the database file`);
  }
  console.log(`server level: ${cases.length} raw requests`);
  expectClean({ problems, count: cases.length }, mark, "server level");
});
