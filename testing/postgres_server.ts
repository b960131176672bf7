/** Where Debian's PostgreSQL 15 server programs are (package postgresql-15). */
export const POSTGRES_BIN = "/usr/lib/postgresql/15/bin";

/** A PostgreSQL server that a test started in a temporary folder, on a loopback port. */
export interface TestPostgres extends AsyncDisposable {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** A store URL for a log of its own, named `log` (test helper). */
  url(log: string): string;
  /** Stop the server: `fast` (clients told, the default) or `immediate` (like a crash). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Start it again (after {@link TestPostgres.stop}), on the same port and data. */
  start(): Promise<void>;
}

/**
 * Why a PostgreSQL server cannot be started here (the server programs are missing), or
 * undefined when it can (test helper).
 */
export function postgresMissing(): string | undefined {
  try {
    Deno.statSync(`${POSTGRES_BIN}/initdb`);
    Deno.statSync(`${POSTGRES_BIN}/pg_ctl`);
  } catch {
    return `PostgreSQL is not installed (no ${POSTGRES_BIN}/initdb; Debian package ` +
      "postgresql-15): skipping the PostgreSQL store tests";
  }
  return undefined;
}

/**
 * Start a PostgreSQL server of its own in a temporary folder: a copy of a data folder `initdb`
 * made (trust auth, user `postgres`; see {@link templateData}) and `pg_ctl start` on a free
 * loopback port, with fsync off unless `options.fsync` (a test's data need not survive a power
 * cut; a bench's commits should cost what they cost). As root, both run as the `postgres` user
 * (`runuser`), since initdb refuses root. Removed, stopped first, on dispose (test helper).
 */
export async function startTestPostgres(
  options: { fsync?: boolean } = {},
): Promise<TestPostgres> {
  const root = await Deno.makeTempDir({ prefix: "rein-pg-" });
  const asRoot = Deno.uid() === 0;
  if (asRoot) await run(["chown", "postgres", root]);
  const data = `${root}/data`;
  const port = freePort();
  const as = (command: string[]) =>
    asRoot ? ["runuser", "-u", "postgres", "--", ...command] : command;
  await run(as(["cp", "-a", await templateData(as), data]));
  const settings =
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=${
      options.fsync === true ? "on" : "off"
    } ` +
    "-c max_connections=200";
  const start = () =>
    run(
      as([
        `${POSTGRES_BIN}/pg_ctl`,
        "-D",
        data,
        "-l",
        `${root}/server.log`,
        "-o",
        settings,
        "-w",
        "start",
      ]),
    );
  const stop = (mode: "fast" | "immediate" = "fast") =>
    run(as([`${POSTGRES_BIN}/pg_ctl`, "-D", data, "-m", mode, "-w", "stop"]));
  await start();
  return {
    port,
    url: (log) => `postgres://postgres@127.0.0.1:${port}/postgres?log=${log}`,
    stop,
    start,
    async [Symbol.asyncDispose]() {
      await stop("immediate").catch(() => {});
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** How `initdb` makes a test server's data folder. */
const INITDB_ARGS = ["-A", "trust", "-U", "postgres", "--no-sync"];

/**
 * A data folder `initdb` made (trust auth, user `postgres`), which each test server copies: one for
 * this PostgreSQL, user and {@link INITDB_ARGS} in the temporary folder, made by the first server
 * that needs it (an `initdb` is about 2 s; a copy a tenth of that). It is made under a name of
 * its own and renamed into place complete, so a server started at the same time (another test
 * file) never copies half of one.
 */
async function templateData(as: (command: string[]) => string[]): Promise<string> {
  const version = await new Deno.Command(`${POSTGRES_BIN}/initdb`, { args: ["--version"] })
    .output();
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(
      [Deno.uid(), ...INITDB_ARGS, new TextDecoder().decode(version.stdout)].join(" "),
    ),
  );
  const name = [...new Uint8Array(digest).slice(0, 8)]
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const template = `${Deno.env.get("TMPDIR") ?? "/tmp"}/rein-pg-template-${name}`;
  const data = `${template}/data`;
  if (await Deno.stat(`${data}/PG_VERSION`).then(() => true, () => false)) return data;
  const work = await Deno.makeTempDir({ prefix: "rein-pg-template-new-" });
  if (Deno.uid() === 0) await run(["chown", "postgres", work]);
  await run(as([`${POSTGRES_BIN}/initdb`, "-D", `${work}/data`, ...INITDB_ARGS]));
  await Deno.chmod(work, 0o755);
  try {
    await Deno.rename(work, template);
  } catch (error) {
    // Another server made it meanwhile: that one is used.
    await Deno.remove(work, { recursive: true });
    if (!await Deno.stat(`${data}/PG_VERSION`).then(() => true, () => false)) throw error;
  }
  return data;
}

/** A loopback port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function run(command: string[]): Promise<void> {
  const [program, ...args] = command;
  const output = await new Deno.Command(program!, { args, stdout: "piped", stderr: "piped" })
    .output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stderr) || new TextDecoder().decode(output.stdout);
    throw new Error(`Cannot run "${command.join(" ")}": ${text.trim()}`);
  }
}
