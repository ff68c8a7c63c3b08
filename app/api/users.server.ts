import { z } from "zod";
import { fixedT } from "../i18n/i18n.server";
import { createYoutubeChannels } from "../integrations/youtube/channels.server";
import { ALIAS_SHEET_FORM, type SheetRefusal } from "../market/alias-sheet.server";
import { MarketError } from "../market/errors";
import { LICENSE_TYPES } from "../market/license-rules";
import { importAliasSheet, listMemberLicenses, reorderLicenses, setLicenseAliases } from "../market/licenses.server";
import { type ChannelProblem, getAccount, registerYoutubeChannel, updateProfile, withdrawMember } from "../market/users/account.server";
import { WITHDRAW_REASONS } from "../market/users/withdraw-reasons";
import { readBoundedForm } from "../utils/multipart.server";
import { readJson, requireMember } from "./caller.server";
import { ok } from "./envelope.server";
import type { ApiRoute } from "./router.server";

/** The API's codes for a refused channel (their messages are the `apiError` entries, in the caller's language). */
const CHANNEL_CODES: Record<ChannelProblem, string> = {
  required: "YOUTUBE_REQUIRED",
  invalidUrl: "YOUTUBE_INVALID_URL",
  invalidId: "YOUTUBE_INVALID_ID",
  noResponse: "YOUTUBE_NO_RESPONSE",
  locked: "YOUTUBE_LOCKED",
};

const SHEET_ERRORS: Record<SheetRefusal, { code: string; status: number }> = {
  unreadable: { code: "BAD_FILE", status: 400 },
  too_large: { code: "FILE_TOO_LARGE", status: 400 },
  too_complex: { code: "FILE_TOO_COMPLEX", status: 400 },
  too_many_rows: { code: "TOO_MANY_ROWS", status: 400 },
  busy: { code: "BUSY", status: 503 },
};

/** The member's account and licences (spec section 7: users, users/youtube, users/licenses...). */
export const userRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "users",
    handler: async (call) => {
      const account = await getAccount(call.context.db, (await requireMember(call)).id);
      return ok({
        nickname: account.nickname,
        email: account.email,
        user_type: account.userType,
        organization: account.organization,
        market_email_agree: account.marketEmailAgree ? 1 : 0,
        channel_id: account.youtubeChannelId,
        channel_unlocks_at: account.youtubeUnlocksAt,
      });
    },
  },
  {
    method: "POST",
    path: "users",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = z.object({ market_email_agree: z.union([z.literal(0), z.literal(1), z.boolean()]) }).parse(await readJson(call));
      const account = await getAccount(call.context.db, viewer.id);
      await updateProfile(call.context.db, viewer.id, {
        nickname: account.nickname,
        marketEmailAgree: input.market_email_agree === 1 || input.market_email_agree === true,
      });
      return ok({ state: "SUCCESS" });
    },
  },
  {
    method: "DELETE",
    path: "users",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = z
        .object({ reason: z.enum(WITHDRAW_REASONS).default("other"), detail: z.string().max(500).optional() })
        .parse(await readJson(call));
      await withdrawMember(call.context.db, viewer.id, { code: input.reason, detail: input.detail });
      return ok({ state: "SUCCESS" });
    },
  },
  {
    method: "POST",
    path: "users/youtube",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = z.object({ channel_id: z.string().max(200) }).parse(await readJson(call));
      const youtube = createYoutubeChannels({ apiKey: call.context.env.YOUTUBE_API_KEY });
      const result = await registerYoutubeChannel(call.context.db, youtube, viewer.id, input.channel_id);
      if (!result.ok) throw new MarketError(CHANNEL_CODES[result.problem], result.problem === "locked" ? 409 : 400);
      return ok({ state: "SUCCESS", channel_id: result.id });
    },
  },
  {
    method: "GET",
    path: "users/licenses",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const q = z
        .object({
          type: z.enum(LICENSE_TYPES).optional(),
          keyword: z.string().max(50).optional(),
          serial: z.string().max(60).optional(),
          email: z.string().max(254).optional(),
          offset: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        })
        .parse(Object.fromEntries(call.query));
      let list = await listMemberLicenses(call.context.db, viewer.id, { keyword: q.keyword, type: q.type });
      if (q.serial) list = list.filter((l) => l.serial === q.serial);
      if (q.email) list = list.filter((l) => l.email.toLowerCase() === q.email?.toLowerCase());
      return ok({ list: list.slice(q.offset, q.offset + q.limit), total_count: list.length });
    },
  },
  {
    method: "GET",
    path: "users/licenses/view",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const serial = z
        .string()
        .min(1, "send the license_id header")
        .parse(call.request.headers.get("license_id") ?? "", { path: ["license_id"] });
      const licence = (await listMemberLicenses(call.context.db, viewer.id)).find((l) => l.serial === serial);
      if (!licence) throw new MarketError("NOT_FOUND", 404, "No license key with this information found. Please check again.");
      return ok(licence);
    },
  },
  {
    method: "POST",
    path: "users/licenses/aliases",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = z
        .object({
          list: z
            .array(z.object({ id: z.number().int().positive(), alias: z.string().max(200) }))
            .min(1)
            .max(200),
        })
        .parse(await readJson(call));
      return ok({ state: "SUCCESS", updated: await setLicenseAliases(call.context.db, viewer.id, input.list) });
    },
  },
  {
    method: "POST",
    path: "users/licenses/orders",
    handler: async (call) => {
      const viewer = await requireMember(call);
      const input = z.object({ order: z.array(z.number().int().positive()).min(1).max(500) }).parse(await readJson(call));
      await reorderLicenses(call.context.db, viewer.id, input.order);
      return ok({ state: "SUCCESS" });
    },
  },
  ...(["POST", "PUT"] as const).map(
    (method): ApiRoute => ({
      method,
      path: "users/licenses/aliases/fileupload",
      handler: async (call) => {
        const viewer = await requireMember(call);
        const upload = await readBoundedForm(call.request, ALIAS_SHEET_FORM);
        const outcome = await importAliasSheet(call.context.db, viewer.id, {
          file: upload.form.get("file") ?? upload.form.get("sheet"),
          tooLarge: upload.truncated || upload.oversized.includes("file") || upload.oversized.includes("sheet"),
        });
        if (!outcome.ok) {
          const { code, status } = SHEET_ERRORS[outcome.reason];
          throw new MarketError(code, status, fixedT(call.language)(`licenses.upload.${outcome.reason}`));
        }
        const results = outcome.results;
        return ok({ list: results, total_count: results.length, count: results.filter((r) => r.ok).length });
      },
    }),
  ),
];
