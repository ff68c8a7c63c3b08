import { type DownloadMode, downloadLicenseOf, redeemBridge, requestDownloads } from "../market/downloads/downloads.server";
import { DOWNLOAD_SOURCES, downloadLibrary } from "../market/downloads/library.server";
import { licenceOverlap } from "../market/downloads/overlap.server";
import { versionAtLeast } from "../market/downloads/rules";
import { MarketError } from "../market/errors";
import { identifyLicense, type LicenseIdentity } from "../market/licenses.server";
import { PASS_STATES } from "../market/pass-status";
import { MIN_EDITOR_VERSION } from "../market/rules";
import { itemCode } from "../utils/input.server";
import { type ApiCall, type ApiRoute, Reply, route } from "./define";
import { apiMessage } from "./messages.server";
import { downloadResult } from "./wire";
import { z } from "./zod";

/** The editor's licence: the `license_id` and `hw_info` headers, verified together. */
async function editorLicense(call: ApiCall): Promise<LicenseIdentity> {
  const serial = call.request.headers.get("license_id");
  const hwInfo = call.request.headers.get("hw_info");
  if (!serial || !hwInfo) throw new MarketError("UNAUTHORIZED", 401, "Send the license_id and hw_info headers");
  const license = await identifyLicense(call.context.db, serial, hwInfo);
  if (!license) throw new MarketError("LICENSE_NOT_FOUND", 403, "No license key with this information found. Please check again.");
  return license;
}

/** The editor is Windows software; an `os` header from another system is refused with the spec's message. */
const onWindows = (call: ApiCall) => {
  const os = call.request.headers.get("os");
  return os ? /^win/i.test(os) : true;
};

const contentsList = z
  .array(z.object({ item_code: itemCode }))
  .min(1)
  .max(100);

async function idsOf(call: ApiCall, list: { item_code: string }[]) {
  const rows = await call.context.db
    .selectFrom("contents")
    .select(["id", "code"])
    .where(
      "code",
      "in",
      list.map((i) => i.item_code),
    )
    .execute();
  return rows.map((r) => r.id);
}

const libraryItem = z.object({
  content_id: z.number().int(),
  code: z.string(),
  type: z.string(),
  title: z.string(),
  thumb: z.string().nullable(),
  source: z.enum(DOWNLOAD_SOURCES).openapi({
    description:
      "Where it came from: purchase, direct (a business key's own purchase), request (paid by the representative), pass; free and benefit in extras.",
  }),
  until: z.string(),
  expired: z.boolean(),
  discontinued: z.boolean(),
  downloads: z.number().int(),
});

const tag = "Downloads (editor)";
const editor = ["license_id", "hw_info", "os"] as const;

function download(mode: DownloadMode, path: string, summary: string): ApiRoute {
  return route({
    method: "POST",
    path,
    tag,
    summary,
    headers: [...editor],
    body: z.object({
      contents_list: contentsList,
      pass_id: z.number().int().positive().optional().openapi({ description: "The pass to download with (contents/downloads/pass)." }),
    }),
    answer: downloadResult,
    handler: async (call, input) => {
      const license = await editorLicense(call);
      const body = await input.body();
      if (mode === "pass" && !body.pass_id) throw new MarketError("PASS_REQUIRED", 400, "pass_id: send the pass to download with");
      const result = await requestDownloads(
        call.context.db,
        {
          license: downloadLicenseOf(license),
          userId: license.userId,
          contentIds: await idsOf(call, body.contents_list),
          mode,
          passId: body.pass_id,
          windows: onWindows(call),
        },
        call.language,
      );
      return answer(call, result);
    },
  });
}

/**
 * A download's answer. A pass asked for items it has no downloads left for answers the spec's 'no remaining
 * downloads' (section 8) as result.message, in the caller's language, with what it did grant (issue 26, point 4).
 */
function answer(call: ApiCall, result: Awaited<ReturnType<typeof requestDownloads>>) {
  const data = { state: result.granted.length ? "SUCCESS" : "ERROR", ...result };
  if (!result.messages.includes("no_remaining")) return data;
  return new Reply(data, { message: apiMessage(call.language, "PASS_EMPTY") });
}

/** Downloads into the editor (spec section 7: contents/downloads, /free, /pass; users/downloads; overlap; hwinfo). */
export const downloadRoutes = [
  download("owned", "contents/downloads", "Signed links for items the licence holds"),
  download("free", "contents/downloads/free", "Signed links for free and benefit items"),
  download("pass", "contents/downloads/pass", "Signed links for items taken with a pass"),
  route({
    method: "POST",
    path: "contents/downloads/redeem",
    tag,
    summary: "Redeems a hand-over token from the website's download page",
    headers: [...editor],
    body: z.object({ token: z.string().min(20).max(64) }),
    answer: downloadResult,
    handler: async (call, input) => {
      const license = await editorLicense(call);
      const body = await input.body();
      const result = await redeemBridge(call.context.db, body.token, downloadLicenseOf(license), onWindows(call), call.language);
      return { state: result.granted.length ? "SUCCESS" : "ERROR", ...result };
    },
  }),
  route({
    method: "GET",
    path: "users/downloads",
    tag,
    summary: "What the licence can download: items, passes, and free items it took before",
    headers: ["license_id", "hw_info"],
    answer: z.object({
      list: z.array(libraryItem),
      total_count: z.number().int(),
      passes: z.array(
        z.object({
          id: z.number().int(),
          group: z.string(),
          remaining: z.number().int(),
          total: z.number().int(),
          expires_at: z.string(),
          status: z.enum(PASS_STATES),
        }),
      ),
      extras: z.array(libraryItem),
    }),
    handler: async (call) => {
      const license = await editorLicense(call);
      const library = await downloadLibrary(call.context.db, license.id, call.language);
      return { list: library.items, totalCount: library.items.length, passes: library.passes, extras: library.extras };
    },
  }),
  route({
    method: "POST",
    path: "users/contents/overlap",
    tag,
    summary: "Which of these items the licence already holds and can use now",
    headers: ["license_id", "hw_info"],
    body: z.object({ contents_list: contentsList }),
    answer: z.object({ list: z.array(z.object({ item_code: z.string(), owned: z.boolean() })) }),
    handler: async (call, input) => {
      const license = await editorLicense(call);
      const body = await input.body();
      // The one overlap rule (issue 24, point 3): what the licence holds and can use now.
      const rows = await call.context.db
        .selectFrom("contents")
        .select(["id", "code"])
        .where(
          "code",
          "in",
          body.contents_list.map((i) => i.item_code),
        )
        .execute();
      const held = new Set(
        (
          await licenceOverlap(
            call.context.db,
            license.id,
            rows.map((r) => r.id),
          )
        ).map((o) => o.contentId),
      );
      const owned = new Set(rows.filter((r) => held.has(r.id)).map((r) => r.code));
      return { list: body.contents_list.map((i) => ({ item_code: i.item_code, owned: owned.has(i.item_code) })) };
    },
  }),
  route({
    method: "GET",
    path: "products/identify/hwinfo",
    tag,
    summary: "The licence the editor speaks for",
    headers: ["license_id", "hw_info"],
    answer: z.object({
      license_id: z.string().openapi({ description: "The product key." }),
      alias: z.string().nullable(),
      owner_kind: z.enum(["individual", "b2bg", "nonmember"]),
      status: z.string(),
      license_type: z.string(),
      valid_until: z.string().nullable(),
      product_version: z.string(),
      minimum_version: z.string(),
      update_required: z.boolean(),
      market_member: z.boolean(),
    }),
    handler: async (call) => {
      const license = await editorLicense(call);
      return {
        license_id: license.serial,
        alias: license.alias,
        ownerKind: license.ownerKind,
        status: license.status,
        licenseType: license.licenseType,
        validUntil: license.validUntil,
        productVersion: license.productVersion,
        minimumVersion: MIN_EDITOR_VERSION,
        updateRequired: !versionAtLeast(license.productVersion),
        marketMember: license.userId !== null,
      };
    },
  }),
];
