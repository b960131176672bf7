/** Where a PostgreSQL event log lives: the server to connect to, and the log's name in it. */
export interface PostgresLocation {
  /** The connection URL as given, without rein's own `log` parameter. */
  url: string;
  /** The log's name (`log=NAME` in the URL; default `main`): the tables are named after it. */
  log: string;
  /** The URL without its password, for messages. */
  display: string;
}

const LOG_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Whether `store` names a PostgreSQL store (`postgres://…` or `postgresql://…`). Pure. */
export function isPostgresUrl(store: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(store);
}

/**
 * Read a `--store` / `REIN_STORE` value: `postgres://user:password@host:port/database?log=NAME`.
 * `log` names the workspace's log in that database (lower-case letters, digits and `_`, up to
 * 40, starting with a letter), so several workspaces can share one database; every other query
 * parameter is the driver's. Pure. Throws for anything else, naming the value (without its
 * password) and what is wrong.
 */
export function parsePostgresUrl(store: string): PostgresLocation {
  if (!isPostgresUrl(store)) {
    throw new Error(`Not a PostgreSQL URL: "${hidePassword(store)}" (expected postgres://…)`);
  }
  let parsed: URL;
  try {
    parsed = new URL(store);
  } catch (error) {
    throw new Error(`Cannot read the store URL "${hidePassword(store)}": ${String(error)}`, {
      cause: error,
    });
  }
  const log = parsed.searchParams.get("log") ?? "main";
  if (!LOG_NAME.test(log)) {
    throw new Error(
      `Cannot use the log name "${log}" of the store URL: expected lower-case letters, digits ` +
        "and _, starting with a letter, at most 40",
    );
  }
  parsed.searchParams.delete("log");
  const url = parsed.toString();
  return { url, log, display: `${hidePassword(url)} (log ${log})` };
}

/** The host (and port) that `location` connects to, for a network permission. Pure. */
export function postgresHost(location: PostgresLocation): string {
  const { hostname, port } = new URL(location.url);
  return `${hostname || "localhost"}:${port || "5432"}`;
}

function hidePassword(text: string): string {
  return text.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
