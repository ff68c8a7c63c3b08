import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Cookie, createCookie } from "@remix-run/node";
import type { Env } from "./env.server";

/**
 * The spec's cookies: `gt` (the session token, HttpOnly, signed), `gsi` (the signed-in marker the
 * pages can see), and `ngt` (the anonymous cart token). Logged in means both gt and gsi exist.
 */
export interface ShopCookies {
  gt: Cookie;
  gsi: Cookie;
  ngt: Cookie;
}

let cached: { key: string; cookies: ShopCookies } | undefined;

/**
 * SESSION_SECRET, or a random secret generated once and kept in the data folder. The file appears whole or not at
 * all (written aside, then linked into place, which fails if another process got there first), so processes that
 * start together on one DATA_DIR all end up with the same secret.
 */
export function sessionSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = path.join(env.DATA_DIR, ".session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(aside, randomBytes(32).toString("base64url"), { mode: 0o600 });
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(aside, { force: true });
    }
    return fs.readFileSync(file, "utf8").trim();
  }
}

export function shopCookies(env: Env): ShopCookies {
  const secret = sessionSecret(env);
  const secure = Boolean(env.PUBLIC_URL?.startsWith("https://"));
  const key = `${secret}:${secure}`;
  if (cached?.key === key) return cached.cookies;
  const base = { path: "/", sameSite: "lax" as const, secure, secrets: [secret] };
  const cookies = {
    gt: createCookie("gt", { ...base, httpOnly: true, maxAge: 60 * 60 * 24 * 14 }),
    gsi: createCookie("gsi", { ...base, httpOnly: false, maxAge: 60 * 60 * 24 * 14 }),
    ngt: createCookie("ngt", { ...base, httpOnly: true, maxAge: 60 * 60 * 24 * 30 }),
  };
  cached = { key, cookies };
  return cookies;
}
