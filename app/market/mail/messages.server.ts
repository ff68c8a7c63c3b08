/**
 * The store's mails, one function each, in the recipient's language: subject, heading and paragraphs from the locale
 * files (`mail.<kind>.subject|heading|body`, paragraphs split on blank lines), a button to the page that matters.
 */
import type { Locale } from "../../i18n/config";
import { fixedT } from "../../i18n/i18n.server";
import { type ComposedMail, composeMail, storeLink } from "./compose.server";

type Vars = Record<string, string | number>;

function standard(kind: string, to: string, locale: Locale, vars: Vars, action?: { labelKey: string; path: string }, unsubscribe?: string) {
  const t = fixedT(locale);
  return composeMail({
    kind,
    to,
    locale,
    subject: t(`mail.${kind}.subject`, vars),
    heading: t(`mail.${kind}.heading`, vars),
    paragraphs: t(`mail.${kind}.body`, vars)
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean),
    action: action ? { label: t(action.labelKey), href: action.path.startsWith("%") ? action.path : storeLink(action.path) } : undefined,
    unsubscribe,
  });
}

/**
 * The welcome of a new member. The address is the one typed at join, not verified: the mail quotes nothing the
 * visitor typed (not even the nickname), and joinMarket caps it per recipient and per client address.
 */
export const welcomeMail = (to: string, locale: Locale): ComposedMail =>
  standard("welcome", to, locale, {}, { labelKey: "mail.action.shop", path: "/" });

/**
 * To the owner of an address someone tried to join with (it already has an account): nothing changed, sign in if it
 * was you. Fixed text only, in the owner's language; capped like the welcome (joinMarket).
 */
export const joinAttemptMail = (to: string, locale: Locale): ComposedMail =>
  standard("joinAttempt", to, locale, {}, { labelKey: "mail.action.signIn", path: "/login" });

export interface OrderFacts {
  orderNo: string;
  orderId: number;
  name: string;
  total: string;
  /**
   * Where the mail's button leads: a member's /mypage/pay/{id}, or a key-only buyer's signed order link (already a
   * store link with its token's mark, see orders/mails.server.ts). Absent: /mypage/pay/{id}.
   */
  link?: string;
}

const orderLink = (o: OrderFacts) => o.link ?? `/mypage/pay/${o.orderId}`;

/** The receipt; for a virtual account it is the deposit confirmation. A key-only buyer's receipt opens the order by its signed link. */
export const receiptMail = (to: string, locale: Locale, o: OrderFacts, member: boolean, deposit = false): ComposedMail =>
  standard(
    deposit ? "deposit" : member ? "receipt" : "receiptKey",
    to,
    locale,
    { orderNo: o.orderNo, name: o.name, total: o.total },
    member || o.link ? { labelKey: "mail.action.payment", path: orderLink(o) } : undefined,
  );

export const vbankMail = (to: string, locale: Locale, o: OrderFacts & { bank: string; account: string; holder: string; due: string }) =>
  standard("vbank", to, locale, { ...o }, { labelKey: "mail.action.payment", path: orderLink(o) });

export const vbankCancelledMail = (to: string, locale: Locale, o: Omit<OrderFacts, "orderId"> & { due: string }) =>
  standard("vbankCancelled", to, locale, { ...o }, { labelKey: "mail.action.shop", path: "/" });

export const refundMail = (to: string, locale: Locale, o: OrderFacts & { refund: string; deduction: string }) =>
  standard("refund", to, locale, { ...o }, { labelKey: "mail.action.payment", path: orderLink(o) });

export function requestToRepresentativeMail(
  to: string,
  locale: Locale,
  r: { requestNo: string; requestId: number; email: string; serial: string; message: string; items: string; quotePath: string },
) {
  return standard(
    "requestRep",
    to,
    locale,
    { requestNo: r.requestNo, email: r.email, serial: r.serial, message: r.message, items: r.items, quoteUrl: storeLink(r.quotePath) },
    { labelKey: "mail.action.request", path: `/mypage/purchase/${r.requestId}` },
  );
}

export const requestToRequesterMail = (
  to: string,
  locale: Locale,
  r: { requestNo: string; serial: string; items: string; quotePath: string },
) =>
  standard(
    "requestRequester",
    to,
    locale,
    { requestNo: r.requestNo, serial: r.serial, items: r.items },
    {
      labelKey: "mail.action.quote",
      path: r.quotePath,
    },
  );

export const requestPaidMail = (to: string, locale: Locale, requestNo: string) => standard("requestPaid", to, locale, { requestNo });

/**
 * The acknowledgement of a 1:1 inquiry. It quotes the inquiry's title only to the signed-in member's own address
 * (`quoted`); any other address (a visitor's, or another one a member typed) is not verified, so it gets the brief
 * acknowledgement with no word of the visitor's text: the store does not carry a stranger's message to whatever
 * address they name.
 */
export const inquiryReceivedMail = (to: string, locale: Locale, q: { title: string; quoted: boolean }) =>
  q.quoted ? standard("inquiryReceived", to, locale, { title: q.title }) : standard("inquiryReceivedBrief", to, locale, {});

export const inquiryAnsweredMail = (to: string, locale: Locale, q: { title: string; answer: string; path: string }) =>
  standard("inquiryAnswered", to, locale, { title: q.title, answer: q.answer }, { labelKey: "mail.action.inquiry", path: q.path });

export const newsletterMail = (to: string, locale: Locale, n: { subject: string; body: string; unsubscribePath: string }) => {
  const t = fixedT(locale);
  return composeMail({
    kind: "newsletter",
    to,
    locale,
    subject: n.subject,
    heading: n.subject,
    paragraphs: n.body.split(/\n\s*\n/).filter(Boolean),
    action: { label: t("mail.action.shop"), href: storeLink("/") },
    unsubscribe: storeLink(n.unsubscribePath),
  });
};
