import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiMessage } from "~/api/messages.server";
import { storeStrings } from "~/i18n/resources";
import { CART_OUTCOMES } from "~/market/cart-outcomes";

/**
 * Every code the API can answer has a message in both languages (issue 18, point 6): the codes are walked from the
 * sources (every `new MarketError(...)`, the router's own answers, the cart's outcomes, the inquiry form's and the
 * spreadsheet's refusals), so a new code without its `apiError` entries fails here.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join("app", "admin") ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const sources = sourceFiles("app").map((file) => ({ file, text: readFileSync(file, "utf8") }));
const read = (file: string) => readFileSync(file, "utf8");
const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);

const constants = new Map(
  sources.flatMap(({ text }) => [...text.matchAll(/const ([A-Z][A-Z_]+) = "([A-Z][A-Z_]+)"/g)].map((m) => [m[1], m[2]])),
);

/** The places whose code is computed; each expands below, and a new one must be added here (and expanded). */
const DYNAMIC_SITES = [
  "app/api/support.server.ts: code",
  "app/api/users.server.ts: CHANNEL_CODES[result.problem]",
  "app/api/users.server.ts: code",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a call site, not a template
  "app/market/orders/cancel.server.ts: `REFUND_${quote.reason.toUpperCase()}`",
  "app/market/orders/flows.server.ts: code",
];

function apiCodes(): { codes: Set<string>; dynamic: string[] } {
  const codes = new Set<string>();
  const dynamic: string[] = [];
  for (const { file, text } of sources) {
    for (const arg of all(text, /new MarketError\(\s*([^,]+?),/g)) {
      const literal = /^"([A-Z][A-Z_]+)"$/.exec(arg);
      if (literal) codes.add(literal[1]);
      else if (constants.has(arg)) codes.add(constants.get(arg) as string);
      else dynamic.push(`${file.split("\\").join("/")}: ${arg}`);
    }
    // The router's and handlers' own answers, and schema messages that name an entry.
    for (const code of all(text, /apiMessage\([^,]+, "([A-Z][A-Z_]+)"/g)) codes.add(code);
    for (const code of all(text, /"apiError\.([A-Z][A-Z_]+)"/g)) codes.add(code);
  }
  // The dynamic sites' codes.
  const support = read("app/api/support.server.ts");
  for (const code of all(support, /refuse\(call\.language, "([A-Z][A-Z_]+)"/g)) codes.add(code);
  for (const code of all(read("app/market/inquiry-forms.server.ts"), /"([A-Z][A-Z_]+)"/g)) codes.add(code);
  const users = read("app/api/users.server.ts");
  for (const code of all(users, /code: "([A-Z][A-Z_]+)"/g)) codes.add(code);
  for (const code of all(users, /: "(YOUTUBE_[A-Z_]+)"/g)) codes.add(code);
  for (const code of all(read("app/market/orders/flows.server.ts"), /need\([^;]*?, "([A-Z][A-Z_]+)"\)/g)) codes.add(code);
  const refusals = /export type RefundRefusal =([^;]+);/.exec(read("app/market/orders/pricing.ts"))?.[1] ?? "";
  for (const reason of all(refusals, /"([a-z_]+)"/g)) codes.add(`REFUND_${reason.toUpperCase()}`);
  for (const outcome of CART_OUTCOMES) if (outcome !== "SUCCESS") codes.add(outcome);
  return { codes, dynamic };
}

describe("API messages", () => {
  const { codes, dynamic } = apiCodes();

  it("finds the API's codes, computed ones only where they are expanded", () => {
    expect(dynamic.sort()).toEqual(DYNAMIC_SITES);
    expect(codes.size).toBeGreaterThan(70);
    for (const code of [
      "DOWNLOAD_OS",
      "YOUTUBE_INVALID_ID",
      "INVALID_REQUEST",
      "ROUTE_NOT_FOUND",
      "REFUND_WINDOW",
      "EXCEED_CART",
      "BAD_FILE",
    ])
      expect(codes).toContain(code);
  });

  it("has a Korean and an English message for every code, and they differ", () => {
    const en = storeStrings.en.apiError as Record<string, string>;
    const ko = storeStrings.ko.apiError as Record<string, string>;
    const missing = [...codes].filter((code) => !en[code]?.trim() || !ko[code]?.trim());
    expect(missing).toEqual([]);
    const same = [...codes].filter(
      (code) =>
        apiMessage("en", code, { path: "x", method: "GET", field: "f" }) ===
        apiMessage("ko", code, { path: "x", method: "GET", field: "f" }),
    );
    expect(same).toEqual([]);
    for (const code of codes) {
      const ko = apiMessage("ko", code, { path: "x", method: "GET", field: "f" });
      expect(ko, code).toMatch(/[가-힣]/);
      expect(ko, code).not.toContain("{{");
    }
  });
});
