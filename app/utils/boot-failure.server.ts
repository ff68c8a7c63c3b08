/**
 * A start-up that fails (a bad environment variable, a database that cannot be reached or opened, a port in use, a
 * missing build) prints one line, `cannot start: <reason>`, and the process exits with status 1: no stack trace, so
 * the reason is what an operator reads in the service's log. The reason names the variable or the address
 * (StartupError from app/db/boot.server.ts, the environment's messages from env.server.ts).
 */
export function cannotStartLine(error: unknown): string {
  return `cannot start: ${reasonOf(error)}`;
}

function reasonOf(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown } | null;
  let text = typeof e?.message === "string" ? e.message : error instanceof Error ? "" : String(error);
  // Node reports a refused connection to every address of a host as an AggregateError with no message of its own.
  if (!text && Array.isArray(e?.errors)) text = e.errors.map((inner) => reasonOf(inner)).join("; ");
  if (!text && typeof e?.code === "string") text = e.code;
  const [first = "", ...rest] = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const line = rest.length ? `${first}${first.endsWith(":") ? " " : ": "}${rest.join("; ")}` : first;
  return (line || "unknown error").slice(0, 1000);
}

/** Prints the line on standard error and ends the process with status 1. */
export function cannotStart(error: unknown): never {
  console.error(cannotStartLine(error));
  process.exit(1);
}
