/** Error codes of a lost or refused connection (the OS's, and PostgreSQL's). */
const LOST = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  // admin_shutdown, crash_shutdown, cannot_connect_now (the server is starting or stopping)
  "57P01",
  "57P02",
  "57P03",
]);

/** The driver's words for a connection that ended under it or could not be made in time. */
const LOST_MESSAGE =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Client was closed|connection error/i;

/**
 * Whether `error` says the connection to the server was lost or could not be made, so the
 * operation may be tried again once the server is back (as opposed to an error the server
 * answered with, which a retry would only repeat). Pure.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (LOST.has(code) || code.startsWith("08"))) return true;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return false;
  return LOST_MESSAGE.test(error.message) ||
    error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.BrokenPipe;
}
