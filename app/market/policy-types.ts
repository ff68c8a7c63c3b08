/** The three policies of /policy?type=... (shared by the page and the domain core). */
export const POLICY_TYPES = ["terms", "privacy", "paid"] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];
export const isPolicyType = (v: unknown): v is PolicyType => typeof v === "string" && (POLICY_TYPES as readonly string[]).includes(v);
