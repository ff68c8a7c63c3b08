import { z } from "zod";
import { companyAccounts } from "../integrations/accounts/company-accounts.server";
import { MarketError } from "../market/errors";
import { enforce, RULES } from "../market/rate-limits.server";
import { issueSignInHandOff, redeemSignInHandOff } from "../market/users/hand-off.server";
import { signedInCookies } from "../utils/auth.server";
import { sessionSecret } from "../utils/cookies.server";
import { publicOrigin } from "../utils/origin.server";
import { ok } from "./envelope.server";
import type { ApiRoute } from "./router.server";

const decryptQuery = z.object({ encrypt: z.string().min(1).max(400), type: z.literal("1") });

/**
 * Sign-in from the editor (spec section 7; contract in docs/editor-sign-in.md): `POST auth/request_blowfish` with the
 * editor's `license_id` and `hw_info` headers issues a short-lived, single-use hand-off token; `GET etc/decrypt`
 * with `encrypt=<token>&type=1` redeems it: a session for the licence's owner, as the authorizationToken and the
 * gt/gsi cookies.
 */
export const authRoutes: ApiRoute[] = [
  {
    method: "POST",
    path: "auth/request_blowfish",
    handler: async (call) => {
      const serial = call.request.headers.get("license_id")?.trim();
      const hwInfo = call.request.headers.get("hw_info")?.trim();
      if (!serial || !hwInfo) throw new MarketError("UNAUTHORIZED", 401, "Send the editor's license_id and hw_info headers");
      await enforce(call.context.db, [[RULES.handOffAddress, call.context.clientIp]]);
      const issued = await issueSignInHandOff(call.context.db, companyAccounts(call.context.db, call.context.env), {
        serial,
        hwInfo,
        secret: sessionSecret(call.context.env),
      });
      return ok({
        state: "SUCCESS",
        encrypt: issued.encrypt,
        expires_at: issued.expiresAt,
        url: `${publicOrigin(call.request, call.context)}/bridge?encrypt=${issued.encrypt}`,
      });
    },
  },
  {
    method: "GET",
    path: "etc/decrypt",
    handler: async (call) => {
      const q = decryptQuery.parse(Object.fromEntries(call.query));
      const session = await redeemSignInHandOff(call.context.db, { token: q.encrypt, secret: sessionSecret(call.context.env) });
      if (!session) throw new MarketError("HANDOFF_INVALID", 401, "This sign-in link has expired or was already used");
      const headers = new Headers();
      const cookies = await signedInCookies(call.context, session.sessionId, session.user.userType);
      for (const c of cookies) headers.append("Set-Cookie", c);
      const gt = cookies[0].split(";")[0].slice("gt=".length);
      return ok(
        { state: "SUCCESS", authorization_token: gt, user_type: session.user.userType, nickname: session.user.nickname },
        { headers },
      );
    },
  },
];
