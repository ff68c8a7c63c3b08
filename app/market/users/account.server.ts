import type { DB } from "../../db/db.server";
import type { YoutubeChannels } from "../../integrations/youtube/channels.server";
import { MarketError } from "../errors";
import { type Actor, recordAudit } from "../operators/audit.server";
import { enforce, RULES } from "../rate-limits.server";
import { YOUTUBE_LOCK_DAYS } from "../rules";
import type { WithdrawReason } from "./withdraw-reasons";
import { type ChannelIdProblem, parseChannelId } from "./youtube";

export interface Account {
  id: number;
  email: string;
  nickname: string;
  userType: number;
  organization: string | null;
  marketEmailAgree: boolean;
  youtubeChannelId: string | null;
  /** When the channel may be changed again (90 days after registration or edit), if it is locked now. */
  youtubeUnlocksAt: string | null;
}

export async function getAccount(db: DB, userId: number, now = new Date()): Promise<Account> {
  const u = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!u) throw new MarketError("NOT_FOUND", 404, "No such member");
  const unlocks = u.youtube_channel_updated_at ? new Date(Date.parse(u.youtube_channel_updated_at) + YOUTUBE_LOCK_DAYS * 86_400_000) : null;
  return {
    id: u.id,
    email: u.email,
    nickname: u.nickname,
    userType: u.user_type,
    organization: u.organization,
    marketEmailAgree: u.market_email_agree === 1,
    youtubeChannelId: u.youtube_channel_id,
    youtubeUnlocksAt: unlocks && unlocks > now ? unlocks.toISOString() : null,
  };
}

/**
 * A member's account as the console shows it to an operator: the view of their personal data is a line of the audit
 * log (`member.view`), written once the member is found.
 */
export async function getAccountForOperator(db: DB, userId: number, actor: Actor, now = new Date()): Promise<Account> {
  const account = await getAccount(db, userId, now);
  await recordAudit(db, actor, { action: "member.view", targetType: "member", targetId: userId }, now);
  return account;
}

export async function updateProfile(db: DB, userId: number, input: { nickname: string; marketEmailAgree: boolean }): Promise<void> {
  await db
    .updateTable("users")
    .set({ nickname: input.nickname.trim(), market_email_agree: input.marketEmailAgree ? 1 : 0 })
    .where("id", "=", userId)
    .execute();
}

/** Registers or changes the member's YouTube channel; refused while the 90-day lock holds. */
export async function setYoutubeChannel(db: DB, userId: number, channelId: string, now = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const account = await getAccount(trx, userId, now);
    if (account.youtubeUnlocksAt) throw new MarketError("YOUTUBE_LOCKED", 409, `Locked until ${account.youtubeUnlocksAt}`);
    await trx
      .updateTable("users")
      .set({ youtube_channel_id: channelId, youtube_channel_updated_at: now.toISOString() })
      .where("id", "=", userId)
      .execute();
  });
}

/**
 * Removes every piece of the member's market data in one transaction (sessions, cart, favorites, passes,
 * downloads, purchase requests and inquiries go with the user row; payment records are kept anonymous for the
 * legal retention period; licences stay with the integrated company account, unlinked from the market). The
 * reason is kept without personal data.
 *
 * An operator withdraws a member on their request through the same function (`by`): the same removal, plus one
 * audit line `member.withdraw` with the operator's reason, written in the same transaction. The line names the
 * member by id only (what was removed is counted, not copied), so the log keeps no personal data of a withdrawn member.
 */
export async function withdrawMember(
  db: DB,
  userId: number,
  reason: { code: WithdrawReason; detail?: string },
  now = new Date(),
  by?: { actor: Actor; reason: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "user_type"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw new MarketError("NOT_FOUND", 404, "No such member");
    if (by) {
      const counted = async (table: "licenses" | "orders" | "passes" | "downloads" | "support_tickets") =>
        Number(
          (
            await trx
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .where("user_id", "=", userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      await recordAudit(
        trx,
        by.actor,
        {
          action: "member.withdraw",
          targetType: "member",
          targetId: userId,
          before: {
            userType: user.user_type,
            licences: await counted("licenses"),
            orders: await counted("orders"),
            passes: await counted("passes"),
            downloads: await counted("downloads"),
            inquiries: await counted("support_tickets"),
          },
          after: { withdrawn: true, reason: reason.code },
          reason: by.reason,
        },
        now,
      );
    }
    await trx.updateTable("licenses").set({ user_id: null }).where("user_id", "=", userId).execute();
    for (const table of [
      "downloads",
      "passes",
      "carts",
      "interests",
      "sessions",
      "support_tickets",
      "purchase_requests",
      "coupon_redemptions",
    ] as const) {
      const column = table === "purchase_requests" ? "owner_user_id" : "user_id";
      await trx.deleteFrom(table).where(column, "=", userId).execute();
    }
    // Payment records stay for the period the E-Commerce Act requires, with nothing left that names the member.
    await trx.updateTable("orders").set({ user_id: null, buyer_email: null }).where("user_id", "=", userId).execute();
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    await trx
      .insertInto("withdrawals")
      .values({
        reason: reason.code,
        detail: reason.detail?.slice(0, 500) ?? null,
        user_type: user.user_type,
        created_at: now.toISOString(),
      })
      .execute();
  });
}

export type ChannelProblem = ChannelIdProblem | "noResponse" | "locked";

/**
 * Registers the channel a member typed: the format (and, with an API key, YouTube itself) must agree and the
 * 90-day lock must be over. Pages and the API both come here.
 */
export async function registerYoutubeChannel(
  db: DB,
  youtube: YoutubeChannels,
  userId: number,
  typed: string,
  now = new Date(),
): Promise<{ ok: true; id: string } | { ok: false; problem: ChannelProblem }> {
  const parsed = parseChannelId(typed);
  if ("problem" in parsed) return { ok: false, problem: parsed.problem };
  // Each check spends the store's YouTube API quota: a member gets RULES.youtubeAccount of them (RateLimited past it).
  await enforce(db, [[RULES.youtubeAccount, `u:${userId}`]], now);
  const check = await youtube.check(parsed.id);
  if (check.state === "not_found") return { ok: false, problem: "invalidId" };
  if (check.state === "no_response") return { ok: false, problem: "noResponse" };
  try {
    await setYoutubeChannel(db, userId, parsed.id, now);
  } catch (error) {
    if (error instanceof MarketError && error.code === "YOUTUBE_LOCKED") return { ok: false, problem: "locked" };
    throw error;
  }
  return { ok: true, id: parsed.id };
}
