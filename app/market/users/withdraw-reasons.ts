/** The reasons a member can give for leaving (shared by the page and the domain core). */
export const WITHDRAW_REASONS = ["not_using", "price", "content", "other_service", "privacy", "other"] as const;
export type WithdrawReason = (typeof WITHDRAW_REASONS)[number];
