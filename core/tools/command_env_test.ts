import assert from "node:assert/strict";
import { commandEnv, exportSettingsEnv, isSecretEnvName } from "./command_env.ts";

const SECRET = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_ACCESS_KEY_ID",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "NPM_TOKEN",
  "HF_TOKEN",
  "DENO_AUTH_TOKENS",
  "VAULT_TOKEN",
  "AZURE_CLIENT_SECRET",
  "CLIENT_SECRET_ID",
  "SECRET_KEY_BASE",
  "DB_PASSWORD",
  "PGPASSWORD",
  "MYSQL_PWD",
  "GPG_PASSPHRASE",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "STRIPE_KEY",
  "SSH_PRIVATE_KEY",
  "SSH_AUTH_SOCK",
  "github_token",
  "MyApp_Api_Key",
];

const KEPT = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "TERM",
  "USER",
  "SHELL",
  "PWD",
  "OLDPWD",
  "TMPDIR",
  "EDITOR",
  "TOKENIZERS_PARALLELISM",
  "KEYBOARD_LAYOUT",
  "KEY",
  "DENO_DIR",
  "NODE_OPTIONS",
  "XDG_RUNTIME_DIR",
  "GPG_TTY",
  "AWS_REGION",
  "AWS_PROFILE",
  "ANTHROPIC_BASE_URL",
];

Deno.test("secret-looking names are secrets", () => {
  assert.deepEqual(SECRET.filter((name) => !isSecretEnvName(name)), []);
});

Deno.test("ordinary names, and words that merely contain KEY or TOKEN, are kept", () => {
  assert.deepEqual(KEPT.filter((name) => isSecretEnvName(name)), []);
});

Deno.test("commandEnv drops secrets, REIN_SECRET_ENV and the variables it names", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    ANTHROPIC_API_KEY: "sk-ant-1",
    MY_DSN: "postgres://u:p@h/db",
    OTHER: "x",
    REIN_SECRET_ENV: "MY_DSN, OTHER_DSN",
  };
  assert.deepEqual(commandEnv(env), {
    PATH: "/usr/bin",
    HOME: "/home/u",
    OTHER: "x",
  });
});

Deno.test("exportSettingsEnv sets each variable of the settings' env, skipping a name the OS refuses", () => {
  const set = new Map<string, string>();
  exportSettingsEnv({ FOO: "bar", "A=B": "x", EMPTY: "" }, {
    set(name, value) {
      if (name.includes("=")) throw new TypeError("Key contains invalid characters");
      set.set(name, value);
    },
  });
  assert.deepEqual(Object.fromEntries(set), { FOO: "bar", EMPTY: "" });
});
