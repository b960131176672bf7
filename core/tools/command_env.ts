/** Words that, as one `_`-separated part of a variable's name, say it holds a secret. */
const SECRET_PARTS = new Set([
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "APIKEY",
]);

/** Part endings that say the same inside a compound word (`PGPASSWORD`, `GITHUBTOKEN`). */
const SECRET_ENDINGS = ["TOKEN", "SECRET", "PASSWORD", "PASSWD"];

/** Adjacent parts that name a key (`OPENAI_API_KEY`, `AWS_ACCESS_KEY_ID`, `SSH_PRIVATE_KEY`). */
const SECRET_PAIRS = ["API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "SECRET_KEY", "SIGNING_KEY"];

/** Secrets whose names the rules above miss: credential sockets and common one-offs. */
const SECRET_NAMES = new Set(["SSH_AUTH_SOCK", "MYSQL_PWD", "DOCKER_AUTH_CONFIG", "NETRC"]);

/**
 * Whether an environment variable's name says it holds a secret that commands must not see:
 * `*_TOKEN`, `*_SECRET*`, `*PASSWORD`, `*_API_KEY`, `*_KEY` and the like (case-insensitive,
 * matched on `_`-separated words so `TOKENIZERS_PARALLELISM`, `KEYBOARD` or `PWD` are kept).
 * Pure.
 */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_NAMES.has(upper)) return true;
  const parts = upper.split("_").filter((part) => part !== "");
  if (parts.at(-1) === "KEY" && parts.length > 1) return true;
  for (const [index, part] of parts.entries()) {
    if (SECRET_PARTS.has(part) || SECRET_ENDINGS.some((end) => part.endsWith(end))) return true;
    if (SECRET_PAIRS.includes(`${part}_${parts[index + 1]}`)) return true;
  }
  return false;
}

/**
 * The environment a command runs with: `env` without secret-looking variables
 * (`isSecretEnvName`) and without those `REIN_SECRET_ENV` names (comma-separated). Pure.
 */
export function commandEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const named = new Set(
    (env.REIN_SECRET_ENV ?? "").split(",").map((name) => name.trim()).filter(Boolean),
  );
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!named.has(name) && !isSecretEnvName(name)) kept[name] = value;
  }
  return kept;
}

/**
 * Sets the settings' `env` block (Claude Code's `"env": {"FOO": "bar"}`: the person's files, and
 * a trusted repository's) in rein's own environment, as Claude Code does, so every command it
 * starts from then on gets it: bash and background jobs (through {@linkcode commandEnv}, so a
 * secret-looking name still stays out of the agent's bash) and MCP servers. A value there wins
 * over the shell's.
 */
export function exportSettingsEnv(
  env: Readonly<Record<string, string>>,
  target: { set(name: string, value: string): void } = Deno.env,
): void {
  for (const [name, value] of Object.entries(env)) {
    // A name the OS refuses (empty, with "=" or NUL) is left out rather than stopping rein.
    try {
      target.set(name, value);
    } catch {
      // Left out.
    }
  }
}
