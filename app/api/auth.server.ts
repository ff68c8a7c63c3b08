import { companyAccounts } from "../integrations/accounts/company-accounts.server";
import { MarketError } from "../market/errors";
import { issueSignInHandOff, redeemSignInHandOff } from "../market/users/hand-off.server";
import { sessionSecret } from "../utils/cookies.server";
import { handOffCookies, handOffDestination, handOffKindName } from "../utils/hand-off.server";
import { publicOrigin } from "../utils/origin.server";
import { Reply, route } from "./define";
import { at, success } from "./wire";
import { z } from "./zod";

const decryptQuery = z.object({ encrypt: z.string().min(1).max(400), type: z.literal("1") });
const kind = z.enum(["member", "key_only", "join"]).openapi({ description: "What the hand-off opens." });
const tag = "Sign-in from the editor";

/**
 * Sign-in from the editor (spec section 7; contract in docs/editor-sign-in.md): `POST auth/request_blowfish` with the
 * editor's `license_id` and `hw_info` headers issues a short-lived, single-use hand-off token; `GET etc/decrypt`
 * with `encrypt=<token>&type=1` redeems it. What it opens follows the kind of key (app/market/users/hand-off.server.ts):
 * an individual member's session (the authorizationToken and the gt/gsi cookies), the key-only webview of a business
 * key (its licence cookie, no token), or the way to join and link a key no market account owns.
 */
export const authRoutes = [
  route({
    method: "POST",
    path: "auth/request_blowfish",
    tag,
    summary: "Issues a short-lived, single-use sign-in hand-off for the editor's licence",
    headers: ["license_id", "hw_info"],
    answer: z.object({ state: success, kind, encrypt: z.string(), expires_at: at, url: z.string() }),
    handler: async (call) => {
      const serial = call.request.headers.get("license_id")?.trim();
      const hwInfo = call.request.headers.get("hw_info")?.trim();
      if (!serial || !hwInfo) throw new MarketError("UNAUTHORIZED", 401, "Send the editor's license_id and hw_info headers");
      const issued = await issueSignInHandOff(call.context.db, companyAccounts(call.context.db, call.context.env), {
        serial,
        hwInfo,
        secret: sessionSecret(call.context.env),
        ip: call.context.clientIp,
      });
      return {
        state: "SUCCESS",
        kind: handOffKindName(issued.kind),
        encrypt: issued.encrypt,
        expires_at: issued.expiresAt,
        url: `${publicOrigin(call.request, call.context)}/bridge?encrypt=${issued.encrypt}`,
      };
    },
  }),
  route({
    method: "GET",
    path: "etc/decrypt",
    tag,
    summary: "Redeems a hand-off: sets the session cookies and answers who is signed in",
    query: decryptQuery,
    answer: z.object({
      state: success,
      kind,
      authorization_token: z.string().nullable().openapi({ description: "The member's authorizationToken (null unless kind is member)." }),
      user_type: z.number().int().nullable(),
      nickname: z.string().nullable(),
      url: z.string(),
    }),
    handler: async (call, input) => {
      const q = input.query();
      const redeemed = await redeemSignInHandOff(call.context.db, { token: q.encrypt, secret: sessionSecret(call.context.env) });
      if (!redeemed) throw new MarketError("HANDOFF_INVALID", 401, "This sign-in link has expired or was already used");
      const headers = new Headers({ "Cache-Control": "private, no-store" });
      const cookies = await handOffCookies(call.context, redeemed);
      for (const c of cookies) headers.append("Set-Cookie", c);
      const url = `${publicOrigin(call.request, call.context)}${handOffDestination(redeemed, null)}`;
      if (redeemed.kind !== "member") {
        // No account is signed in: the key-only webview (its licence cookie is set) or the way to join and link.
        return new Reply(
          { state: "SUCCESS", kind: handOffKindName(redeemed.kind), authorization_token: null, user_type: null, nickname: null, url },
          { headers },
        );
      }
      const gt = cookies[0].split(";")[0].slice("gt=".length);
      return new Reply(
        {
          state: "SUCCESS",
          kind: "member",
          authorization_token: gt,
          user_type: redeemed.user.userType,
          nickname: redeemed.user.nickname,
          url,
        },
        { headers },
      );
    },
  }),
];
