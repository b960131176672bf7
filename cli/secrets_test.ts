import assert from "node:assert/strict";
import { secretValues, storePassword } from "./secrets.ts";

function env(vars: Record<string, string>) {
  return { get: (name: string) => vars[name], toObject: () => ({ ...vars }) };
}

Deno.test("credentials, named secrets and long secret-looking variables are redacted", () => {
  const notices: string[] = [];
  const values = secretValues(
    env({
      ANTHROPIC_API_KEY: "sk-ant-12345678",
      AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCY",
      DEPLOY_PRIVATE_KEY: "-----BEGIN KEY-----abcdef",
      MY_DB_URL: "postgres://u:hunter2hunter2@db/x",
      REIN_SECRET_ENV: "MY_DB_URL, SHORT",
      SHORT: "abc",
      HOME: "/home/someone/with/a/long/path",
    }),
    (m) => notices.push(m),
  );
  assert.deepEqual(values.sort(), [
    "-----BEGIN KEY-----abcdef",
    "postgres://u:hunter2hunter2@db/x",
    "sk-ant-12345678",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCY",
  ]);
  assert.deepEqual(notices, [
    "SHORT is shorter than 8 characters, so it cannot be redacted from the log",
  ]);
});

Deno.test("short values of secret-looking names are not redacted out of ordinary text", () => {
  assert.deepEqual(
    secretValues(env({ POSTGRES_PASSWORD: "postgres", GITHUB_TOKEN: "short-token" }), () => {}),
    [],
  );
});

Deno.test("a PostgreSQL store's password in REIN_STORE is a secret, as written and decoded", () => {
  assert.deepEqual(storePassword("postgres://rein:s3cret%21pw@db:5432/rein?log=main"), [
    "s3cret%21pw",
    "s3cret!pw",
  ]);
  assert.deepEqual(storePassword("postgresql://rein:longenough@db/rein"), ["longenough"]);
  assert.deepEqual(storePassword("postgres://rein:short@db/rein"), []);
  assert.deepEqual(storePassword("postgres://db/rein"), []);
  assert.deepEqual(storePassword("not a url"), []);
  assert.deepEqual(storePassword(undefined), []);
});
