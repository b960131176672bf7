/** Error codes of a lost or refused connection (the driver's, the OS's, and PostgreSQL's). */
const LOST = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
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

/**
 * Whether `error` says the connection to the server was lost or could not be made, so the
 * operation may be tried again once the server is back (as opposed to an error the server
 * answered with, which a retry would only repeat). Pure.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (LOST.has(code) || code.startsWith("08"))) return true;
  return error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.BrokenPipe;
}
