/** Korea Standard Time has no daylight saving: UTC+9 all year. */
const KST_OFFSET_MS = 9 * 3_600_000;

/** A virtual-account deposit is due 23:59:59 (Asia/Seoul) on the day after the order (spec section 9). */
export function vbankDueAt(orderedAt: Date): string {
  const kst = new Date(orderedAt.getTime() + KST_OFFSET_MS);
  const due = Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth(), kst.getUTCDate() + 1, 23, 59, 59) - KST_OFFSET_MS;
  return new Date(due).toISOString();
}

/** The date `days` whole days after an ISO instant. */
export const daysAfter = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
