/**
 * Where mail goes (MAIL_TRANSPORT): `outbox` (the embedded default, test mode) writes each message as an .eml file
 * under DATA_DIR/outbox; `smtp` delivers over SMTP to SMTP_URL with nodemailer. Both build the same RFC 5322
 * message, with a Message-ID stable per queued row.
 */
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  messageId: string;
  /** The queued row's id: names the outbox file. */
  id: number;
}

export interface MailTransport {
  readonly kind: "outbox" | "smtp";
  send(message: OutgoingMessage): Promise<void>;
  close?(): void;
}

function mailOptions(m: OutgoingMessage) {
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    headers: m.headers,
    messageId: m.messageId,
  };
}

/** The outbox: each message as `<id>.eml` (written to a temporary name, then renamed, so a file is whole). */
export function createOutboxTransport(dir: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(m) {
      const info = await composer.sendMail(mailOptions(m));
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${m.id}.eml`);
      const tmp = `${file}.tmp-${process.pid}`;
      await fs.writeFile(tmp, info.message as Buffer);
      await fs.rename(tmp, file);
    },
  };
}

export function createSmtpTransport(url: string): MailTransport {
  const options = { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as SMTPTransport.Options;
  const transporter = nodemailer.createTransport(options);
  return {
    kind: "smtp",
    async send(m) {
      await transporter.sendMail(mailOptions(m));
    },
    close: () => transporter.close(),
  };
}

export const outboxDir = (dataDir: string) => path.join(dataDir, "outbox");

export function createMailTransport(env: { MAIL_TRANSPORT: "outbox" | "smtp"; SMTP_URL?: string; DATA_DIR: string }): MailTransport {
  if (env.MAIL_TRANSPORT === "smtp") {
    if (!env.SMTP_URL) throw new Error("MAIL_TRANSPORT=smtp needs SMTP_URL");
    return createSmtpTransport(env.SMTP_URL);
  }
  return createOutboxTransport(outboxDir(env.DATA_DIR));
}
