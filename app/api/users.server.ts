import { fixedT } from "../i18n/i18n.server";
import { createYoutubeChannels } from "../integrations/youtube/channels.server";
import { ALIAS_SHEET_FORM, type SheetRefusal } from "../market/alias-sheet.server";
import { MarketError } from "../market/errors";
import { LICENSE_TYPES } from "../market/license-rules";
import { importAliasSheet, listMemberLicenses, reorderLicenses, setLicenseAliases } from "../market/licenses.server";
import { type ChannelProblem, getAccount, registerYoutubeChannel, updateProfile, withdrawMember } from "../market/users/account.server";
import { WITHDRAW_REASONS } from "../market/users/withdraw-reasons";
import { readBoundedForm } from "../utils/multipart.server";
import { requireMember } from "./caller.server";
import { type ApiRoute, route } from "./define";
import { memberLicense, success } from "./wire";
import { z } from "./zod";

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

const tag = "Account and licences";
const member = ["authorizationToken"] as const;
const done = z.object({ state: success });

/** The member's account and licences (spec section 7: users, users/youtube, users/licenses...). */
export const userRoutes: ApiRoute[] = [
  route({
    method: "GET",
    path: "users",
    tag,
    summary: "The signed-in member",
    headers: [...member],
    answer: z.object({
      nickname: z.string(),
      email: z.string(),
      user_type: z.number().int().openapi({ description: "2 is a business account." }),
      organization: z.string().nullable(),
      market_email_agree: z.union([z.literal(0), z.literal(1)]),
      channel_id: z.string().nullable(),
      channel_unlocks_at: z.string().nullable(),
    }),
    handler: async (call) => {
      const account = await getAccount(call.context.db, (await requireMember(call)).id);
      return {
        nickname: account.nickname,
        email: account.email,
        userType: account.userType,
        organization: account.organization,
        marketEmailAgree: account.marketEmailAgree ? 1 : 0,
        channelId: account.youtubeChannelId,
        channelUnlocksAt: account.youtubeUnlocksAt,
      };
    },
  }),
  route({
    method: "POST",
    path: "users",
    tag,
    summary: "Sets the marketing e-mail agreement",
    headers: [...member],
    body: z.object({ market_email_agree: z.union([z.literal(0), z.literal(1), z.boolean()]) }),
    answer: done,
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const body = await input.body();
      const account = await getAccount(call.context.db, viewer.id);
      await updateProfile(call.context.db, viewer.id, {
        nickname: account.nickname,
        marketEmailAgree: body.market_email_agree === 1 || body.market_email_agree === true,
      });
      return { state: "SUCCESS" };
    },
  }),
  route({
    method: "DELETE",
    path: "users",
    tag,
    summary: "Withdraws the member (all market data is removed)",
    headers: [...member],
    body: z.object({ reason: z.enum(WITHDRAW_REASONS).default("other"), detail: z.string().max(500).optional() }),
    answer: done,
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const body = await input.body();
      await withdrawMember(call.context.db, viewer.id, { code: body.reason, detail: body.detail });
      return { state: "SUCCESS" };
    },
  }),
  route({
    method: "POST",
    path: "users/youtube",
    tag,
    summary: "Registers the member's YouTube channel id",
    headers: [...member],
    body: z.object({ channel_id: z.string().max(200) }),
    answer: z.object({ state: success, channel_id: z.string() }),
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const body = await input.body();
      const youtube = createYoutubeChannels({ apiKey: call.context.env.YOUTUBE_API_KEY });
      const result = await registerYoutubeChannel(call.context.db, youtube, viewer.id, body.channel_id);
      if (!result.ok) throw new MarketError(CHANNEL_CODES[result.problem], result.problem === "locked" ? 409 : 400);
      return { state: "SUCCESS", channel_id: result.id };
    },
  }),
  route({
    method: "GET",
    path: "users/licenses",
    tag,
    summary: "The member's licences, searched by type, keyword, serial or e-mail",
    headers: [...member],
    query: z.object({
      type: z.enum(LICENSE_TYPES).optional(),
      keyword: z.string().max(50).optional(),
      serial: z.string().max(60).optional(),
      email: z.string().max(254).optional(),
      offset: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
    answer: z.object({ list: z.array(memberLicense), total_count: z.number().int() }),
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const q = input.query();
      let list = await listMemberLicenses(call.context.db, viewer.id, { keyword: q.keyword, type: q.type });
      if (q.serial) list = list.filter((l) => l.serial === q.serial);
      if (q.email) list = list.filter((l) => l.email.toLowerCase() === q.email?.toLowerCase());
      return { list: list.slice(q.offset, q.offset + q.limit), total_count: list.length };
    },
  }),
  route({
    method: "GET",
    path: "users/licenses/view",
    tag,
    summary: "One of the member's licences, named by the license_id header",
    headers: [...member, "license_id"],
    answer: memberLicense,
    handler: async (call) => {
      const viewer = await requireMember(call);
      const serial = z
        .string()
        .min(1, "send the license_id header")
        .parse(call.request.headers.get("license_id") ?? "", { path: ["license_id"] });
      const licence = (await listMemberLicenses(call.context.db, viewer.id)).find((l) => l.serial === serial);
      if (!licence) throw new MarketError("NOT_FOUND", 404, "No license key with this information found. Please check again.");
      return licence;
    },
  }),
  route({
    method: "POST",
    path: "users/licenses/aliases",
    tag,
    summary: "Sets aliases of the member's licences",
    headers: [...member],
    body: z.object({
      list: z
        .array(z.object({ id: z.number().int().positive(), alias: z.string().max(200) }))
        .min(1)
        .max(200),
    }),
    answer: z.object({ state: success, updated: z.number().int() }),
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const body = await input.body();
      return { state: "SUCCESS", updated: await setLicenseAliases(call.context.db, viewer.id, body.list) };
    },
  }),
  route({
    method: "POST",
    path: "users/licenses/orders",
    tag,
    summary: "Sets the order the member's licences are listed in",
    headers: [...member],
    body: z.object({ order: z.array(z.number().int().positive()).min(1).max(500) }),
    answer: done,
    handler: async (call, input) => {
      const viewer = await requireMember(call);
      const body = await input.body();
      await reorderLicenses(call.context.db, viewer.id, body.order);
      return { state: "SUCCESS" };
    },
  }),
  ...(["POST", "PUT"] as const).map((method) =>
    route({
      method,
      path: "users/licenses/aliases/fileupload",
      tag,
      summary: "Sets aliases from a spreadsheet (multipart: file)",
      headers: [...member],
      form: z.object({ file: z.string().openapi({ format: "binary", description: "The spreadsheet (product key, alias per row)." }) }),
      answer: z.object({
        list: z.array(
          z.object({
            row: z.number().int(),
            serial: z.string(),
            ok: z.boolean(),
            problem: z.enum(["missing", "not_found", "too_long"]).optional(),
          }),
        ),
        total_count: z.number().int(),
        count: z.number().int(),
      }),
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
        return { list: results, total_count: results.length, count: results.filter((r) => r.ok).length };
      },
    }),
  ),
];
