/**
 * Every mail the store sends has one shape: a heading, paragraphs, an optional button link, and a footer; as HTML
 * and as plain text, in the recipient's language. Links are written against PUBLIC_URL_MARK, which the worker
 * replaces with the configured PUBLIC_URL when it delivers (the domain that queues a mail need not know it).
 */
import type { Locale } from "../../i18n/config";
import { fixedT } from "../../i18n/i18n.server";

export const PUBLIC_URL_MARK = "%PUBLIC_URL%";

/** An address on the store, resolved at delivery. */
export const storeLink = (path: string) => `${PUBLIC_URL_MARK}${path.startsWith("/") ? path : `/${path}`}`;

export interface ComposedMail {
  kind: string;
  language: Locale;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface MailContent {
  kind: string;
  to: string;
  locale: Locale;
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; href: string };
  /** Marketing mail: the one-click unsubscribe address (RFC 8058), shown in the footer and sent as headers. */
  unsubscribe?: string;
}

const escapeHtml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

const paragraphHtml = (p: string) => `<p style="margin:0 0 14px;line-height:1.6">${escapeHtml(p).replaceAll("\n", "<br>")}</p>`;

export function composeMail(c: MailContent): ComposedMail {
  const t = fixedT(c.locale);
  const footer = t("mail.footer");
  const text = [
    c.heading,
    "",
    ...c.paragraphs.flatMap((p) => [p, ""]),
    ...(c.action ? [`${c.action.label}: ${c.action.href}`, ""] : []),
    "--",
    footer,
    ...(c.unsubscribe ? [`${t("mail.unsubscribe")}: ${c.unsubscribe}`] : []),
  ].join("\n");
  const html = `<!doctype html><html lang="${c.locale}"><head><meta charset="utf-8"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,'Segoe UI','Apple SD Gothic Neo','Malgun Gothic',sans-serif;color:#1d2330">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:28px">
<p style="margin:0 0 18px;font-weight:700;color:#3a4ee0">${escapeHtml(t("brand"))}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map(paragraphHtml).join("\n")}
${c.action ? `<p style="margin:22px 0"><a href="${escapeHtml(c.action.href)}" style="background:#3a4ee0;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(c.action.label)}</a></p>` : ""}
<hr style="border:0;border-top:1px solid #e3e5ea;margin:24px 0 12px">
<p style="margin:0;font-size:12px;color:#5d6473">${escapeHtml(footer)}</p>
${c.unsubscribe ? `<p style="margin:8px 0 0;font-size:12px"><a href="${escapeHtml(c.unsubscribe)}" style="color:#5d6473">${escapeHtml(t("mail.unsubscribe"))}</a></p>` : ""}
</div></body></html>`;
  const headers: Record<string, string> = c.unsubscribe
    ? { "List-Unsubscribe": `<${c.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
    : {};
  return { kind: c.kind, language: c.locale, to: c.to, subject: c.subject, text, html, headers };
}
