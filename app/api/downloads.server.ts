import { z } from "zod";
import { type DownloadMode, downloadLicenseOf, redeemBridge, requestDownloads } from "../market/downloads/downloads.server";
import { downloadLibrary } from "../market/downloads/library.server";
import { licenceOverlap } from "../market/downloads/overlap.server";
import { versionAtLeast } from "../market/downloads/rules";
import { MarketError } from "../market/errors";
import { identifyLicense, type LicenseIdentity } from "../market/licenses.server";
import { MIN_EDITOR_VERSION } from "../market/rules";
import { itemCode } from "../utils/input.server";
import { readJson } from "./caller.server";
import { type Envelope, ok } from "./envelope.server";
import { apiMessage } from "./messages.server";
import type { ApiCall, ApiRoute } from "./router.server";

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

function download(mode: DownloadMode): ApiRoute["handler"] {
  return async (call) => {
    const license = await editorLicense(call);
    const input = z.object({ contents_list: contentsList, pass_id: z.number().int().positive().optional() }).parse(await readJson(call));
    if (mode === "pass" && !input.pass_id) throw new MarketError("PASS_REQUIRED", 400, "pass_id: send the pass to download with");
    const result = await requestDownloads(
      call.context.db,
      {
        license: downloadLicenseOf(license),
        userId: license.userId,
        contentIds: await idsOf(call, input.contents_list),
        mode,
        passId: input.pass_id,
        windows: onWindows(call),
      },
      call.language,
    );
    return answer(call, result);
  };
}

/**
 * A download's answer. A pass asked for items it has no downloads left for answers the spec's 'no remaining
 * downloads' (section 8) as result.message, in the caller's language, with what it did grant (issue 26, point 4).
 */
function answer(call: ApiCall, result: Awaited<ReturnType<typeof requestDownloads>>): Response {
  const data = { state: result.granted.length ? "SUCCESS" : "ERROR", ...result };
  if (!result.messages.includes("no_remaining")) return ok(data);
  return Response.json({ result: { code: 200, message: apiMessage(call.language, "PASS_EMPTY") }, data } satisfies Envelope<typeof data>);
}

/** Downloads into the editor (spec section 7: contents/downloads, /free, /pass; users/downloads; overlap; hwinfo). */
export const downloadRoutes: ApiRoute[] = [
  { method: "POST", path: "contents/downloads", handler: download("owned") },
  { method: "POST", path: "contents/downloads/free", handler: download("free") },
  { method: "POST", path: "contents/downloads/pass", handler: download("pass") },
  {
    method: "POST",
    path: "contents/downloads/redeem",
    handler: async (call) => {
      const license = await editorLicense(call);
      const input = z.object({ token: z.string().min(20).max(64) }).parse(await readJson(call));
      const result = await redeemBridge(call.context.db, input.token, downloadLicenseOf(license), onWindows(call), call.language);
      return ok({ state: result.granted.length ? "SUCCESS" : "ERROR", ...result });
    },
  },
  {
    method: "GET",
    path: "users/downloads",
    handler: async (call) => {
      const license = await editorLicense(call);
      const library = await downloadLibrary(call.context.db, license.id, call.language);
      return ok({ list: library.items, total_count: library.items.length, passes: library.passes, extras: library.extras });
    },
  },
  {
    method: "POST",
    path: "users/contents/overlap",
    handler: async (call) => {
      const license = await editorLicense(call);
      const input = z.object({ contents_list: contentsList }).parse(await readJson(call));
      // The one overlap rule (issue 24, point 3): what the licence holds and can use now.
      const rows = await call.context.db
        .selectFrom("contents")
        .select(["id", "code"])
        .where(
          "code",
          "in",
          input.contents_list.map((i) => i.item_code),
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
      return ok({ list: input.contents_list.map((i) => ({ item_code: i.item_code, owned: owned.has(i.item_code) })) });
    },
  },
  {
    method: "GET",
    path: "products/identify/hwinfo",
    handler: async (call) => {
      const license = await editorLicense(call);
      return ok({
        license_id: license.serial,
        alias: license.alias,
        owner_kind: license.ownerKind,
        status: license.status,
        license_type: license.licenseType,
        valid_until: license.validUntil,
        product_version: license.productVersion,
        minimum_version: MIN_EDITOR_VERSION,
        update_required: !versionAtLeast(license.productVersion),
        market_member: license.userId !== null,
      });
    },
  },
];
