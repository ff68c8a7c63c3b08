import { createHash } from "node:crypto";
import type { Selectable } from "kysely";
import type { AuditLogTable } from "./schema";

/**
 * The audit log's hash chain (migration 0029): every row of `audit_log` carries its place in the chain (`seq`, 1, 2,
 * 3…), the hash of the row before it (`prev_hash`, AUDIT_GENESIS for the first) and its own hash, the SHA-256 of the
 * previous hash and its content. A row changed after it was written no longer matches its hash; a row removed or
 * slipped in breaks the next row's link. Written by app/market/operators/audit.server.ts, checked by the console.
 */
export const AUDIT_GENESIS = "0".repeat(64);

/** What a row's hash covers: every column but the id (assigned by the database) and the hashes themselves. */
export type AuditChained = Omit<Selectable<AuditLogTable>, "id" | "prev_hash" | "hash">;

/** The row's hash: SHA-256 (hex) of the previous row's hash, a newline and the row's columns as a JSON array. */
export function auditRowHash(prevHash: string, row: AuditChained): string {
  const content = JSON.stringify([
    row.seq,
    row.operator_id,
    row.operator_email,
    row.action,
    row.target_type,
    row.target_id,
    row.before_json,
    row.after_json,
    row.reason,
    row.ip,
    row.created_at,
  ]);
  return createHash("sha256").update(`${prevHash}\n${content}`).digest("hex");
}
