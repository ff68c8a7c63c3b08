/**
 * What both a page component and the domain need about support, without zod (which would ship to the browser
 * with it): the inquiry categories and statuses. The form schema is server-only (inquiry-forms.server.ts).
 */
export const SUPPORT_CATEGORIES = ["purchase", "payment", "refund", "download", "license", "account", "other"] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/** An inquiry is accepted until it is answered, then completed (support_tickets.status). */
export const INQUIRY_STATUSES = ["accepted", "completed"] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];
