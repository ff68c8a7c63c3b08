/**
 * The company account service: who owns an editor licence. The editor's sign-in hand-off asks it which account a
 * licence installation belongs to (docs/editor-sign-in.md). Two implementations, chosen by configuration:
 * - built-in (the embedded default): the store's own licences and accounts;
 * - HTTP (COMPANY_ACCOUNTS_URL): `GET {base}/licenses/{serial}/owner` with the `hw_info` header and a bearer token,
 *   answering `{ "email": "...", "user_type": 1 | 2 }`, or 404 when the pair is unknown.
 * The answer says who owns the seat; what the hand-off opens for it is decided in app/market/users/hand-off.server.ts.
 */
import type { DB } from "../../db/db.server";

export interface LicenseOwner {
  /** The company account's e-mail: the market account of the same e-mail is the one the hand-off can open. */
  email: string;
  /** 1 an individual account, 2 a business (B2BG) account: a business account is never signed in from a seat. */
  userType: 1 | 2;
}

export interface CompanyAccounts {
  /** The account owning the licence installed with this hardware fingerprint, or null. */
  ownerOfLicense(serial: string, hwInfo: string): Promise<LicenseOwner | null>;
}

export class CompanyAccountsUnavailable extends Error {
  constructor(reason: string) {
    super(`company account service unavailable: ${reason}`);
    this.name = "CompanyAccountsUnavailable";
  }
}

export function createBuiltInAccounts(db: DB): CompanyAccounts {
  return {
    async ownerOfLicense(serial, hwInfo) {
      const row = await db
        .selectFrom("licenses")
        .innerJoin("users", "users.id", "licenses.user_id")
        .select(["users.email", "users.user_type", "licenses.owner_kind"])
        .where("licenses.serial", "=", serial)
        .where("licenses.hw_info", "=", hwInfo)
        .where("licenses.status", "!=", "released")
        .executeTakeFirst();
      if (!row) return null;
      return { email: row.email, userType: row.user_type === 2 || row.owner_kind === "b2bg" ? 2 : 1 };
    },
  };
}

export function createHttpAccounts(options: {
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}): CompanyAccounts {
  const fetchImpl = options.fetchImpl ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    async ownerOfLicense(serial, hwInfo) {
      let res: Response;
      try {
        res = await fetchImpl(`${base}/licenses/${encodeURIComponent(serial)}/owner`, {
          headers: { hw_info: hwInfo, accept: "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
        });
      } catch (error) {
        throw new CompanyAccountsUnavailable(String(error));
      }
      if (res.status === 404) return null;
      if (!res.ok) throw new CompanyAccountsUnavailable(`HTTP ${res.status}`);
      const body = (await res.json().catch(() => null)) as { email?: unknown; user_type?: unknown } | null;
      if (!body || typeof body.email !== "string" || !body.email.includes("@")) throw new CompanyAccountsUnavailable("malformed answer");
      // The contract's user_type: 2 is a business account; anything but 1 or 2 is a malformed answer.
      if (body.user_type !== undefined && body.user_type !== 1 && body.user_type !== 2)
        throw new CompanyAccountsUnavailable("malformed answer");
      return { email: body.email, userType: body.user_type === 2 ? 2 : 1 };
    },
  };
}

/** The configured service: HTTP when COMPANY_ACCOUNTS_URL is set, else the built-in accounts. */
export function companyAccounts(db: DB, env: { COMPANY_ACCOUNTS_URL?: string; COMPANY_ACCOUNTS_TOKEN?: string }): CompanyAccounts {
  return env.COMPANY_ACCOUNTS_URL
    ? createHttpAccounts({ baseUrl: env.COMPANY_ACCOUNTS_URL, token: env.COMPANY_ACCOUNTS_TOKEN })
    : createBuiltInAccounts(db);
}
