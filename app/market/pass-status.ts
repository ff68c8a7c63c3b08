/**
 * A pass's status, one rule for every door: the website's /mypage/passes and My page home, the download pages (the
 * website's and the editor's webview /mypage/sw/download), the download check itself, the operator console and
 * the API's users/passes and users/downloads.
 *
 * - unavailable: the pass was cancelled or refunded (its stored status); nothing else matters then.
 * - expired: its period of use is over (now at or past its end), whatever count is left. When a pass is both used
 *   up and past its end, "expired" is what it says: the end date is the later, lasting fact (the count could never
 *   be used again anyway), and it is the same answer whether or not the last download came before the end.
 * - used_up: nothing left (remaining 0) while its period still runs.
 * - available: downloads left and within its period.
 */
export const PASS_STATES = ["available", "used_up", "expired", "unavailable"] as const;
export type PassState = (typeof PASS_STATES)[number];

export interface PassFacts {
  /** The stored status: available, or unavailable once cancelled (an older "expired" is read as expired). */
  status: string;
  remaining: number;
  expiresAt: string;
}

export function passState(pass: PassFacts, now: Date): PassState {
  if (pass.status === "unavailable") return "unavailable";
  if (pass.status === "expired" || Date.parse(pass.expiresAt) <= now.getTime()) return "expired";
  if (pass.remaining <= 0) return "used_up";
  return "available";
}
