import type { RuntimeEnv } from "./paths.ts";

/** Variables whose names say they hold a secret (matched anywhere in the name). */
const SECRET_NAME =
  /API_KEY|AUTH_TOKEN|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL/;

/**
 * Secrets that must never reach the log: the API credentials and every variable named in
 * REIN_SECRET_ENV (comma-separated) at 8 characters or more, and variables whose names say they
 * hold a secret at 16 or more. The higher bar for names guessed by pattern keeps short, common
 * values (a `POSTGRES_PASSWORD=postgres`) from being redacted out of ordinary text, which would
 * also rewrite the model's tool inputs. A named variable too short to redact is reported.
 */
export function secretValues(env: RuntimeEnv, onNotice: (message: string) => void): string[] {
  const named = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]);
  for (const name of (env.get("REIN_SECRET_ENV") ?? "").split(",")) {
    if (name.trim()) named.add(name.trim());
  }
  const values: string[] = [...storePassword(env.get("REIN_STORE"))];
  for (const [name, value] of Object.entries(env.toObject())) {
    if (name === "REIN_SECRET_ENV") continue; // a list of names, not a secret
    if (named.has(name)) {
      if (value.length >= 8) values.push(value);
      else if (value) {
        onNotice(`${name} is shorter than 8 characters, so it cannot be redacted from the log`);
      }
    } else if (SECRET_NAME.test(name) && value.length >= 16) {
      values.push(value);
    }
  }
  return values;
}

/**
 * The password of a PostgreSQL store's URL (`postgres://user:password@host/db`), as written and
 * percent-decoded, when it is 8 characters or more (shorter ones are too common to redact from
 * ordinary text); none for any other value. Pure.
 */
export function storePassword(url: string | undefined): string[] {
  if (url === undefined || !/^postgres(?:ql)?:\/\//.test(url)) return [];
  try {
    const password = new URL(url).password;
    if (password.length < 8) return [];
    const decoded = decodeURIComponent(password);
    return decoded === password ? [password] : [password, decoded];
  } catch {
    return [];
  }
}
