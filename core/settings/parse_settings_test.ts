import assert from "node:assert/strict";
import { parseSettings } from "./parse_settings.ts";

const PATH = "/p/.claude/settings.json";

function parse(text: string) {
  return parseSettings({ scope: "project", path: PATH, text });
}

Deno.test("a valid file gives its known keys typed and its unknown keys in other", () => {
  const text = JSON.stringify({
    $schema: "https://json.schemastore.org/claude-code-settings.json",
    model: "claude-opus-4-5",
    fallbackModel: "claude-sonnet-4-5",
    apiKeyHelper: "~/bin/key",
    env: { DEBUG: "1" },
    permissions: { allow: ["Bash(npm test *)"], defaultMode: "acceptEdits" },
    hooks: { Stop: [{ hooks: [{ type: "command", command: "notify" }] }] },
    statusLine: { type: "command", command: "status" },
  });

  const { settings, diagnostics } = parse(text);

  assert.deepEqual(diagnostics, []);
  assert.deepEqual(settings, {
    model: "claude-opus-4-5",
    fallbackModel: "claude-sonnet-4-5",
    apiKeyHelper: "~/bin/key",
    env: { DEBUG: "1" },
    permissions: { allow: ["Bash(npm test *)"], defaultMode: "acceptEdits" },
    hooks: { Stop: [{ hooks: [{ type: "command", command: "notify" }] }] },
    other: {
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      statusLine: { type: "command", command: "status" },
    },
  });
});

Deno.test("an empty object gives no settings and no diagnostics", () => {
  assert.deepEqual(parse("{}\n"), { settings: {}, diagnostics: [] });
});

Deno.test("invalid JSON names the file and the position", () => {
  const { settings, diagnostics } = parse('{\n  "model": "opus"\n  "env": {}\n}\n');

  assert.deepEqual(settings, {});
  assert.deepEqual(diagnostics, [{
    path: PATH,
    severity: "error",
    message: `Cannot parse settings in "${PATH}" at line 3, column 3: ` +
      `Expected ',' or '}' after property value`,
    fatal: true,
  }]);
});

Deno.test("a misspelt literal is located although the parser gives no position", () => {
  const { diagnostics } = parse('{\n  "permissions": {\n    "allow": tru\n  }\n}');

  assert.equal(diagnostics.length, 1);
  assert.match(
    diagnostics[0]?.message ?? "",
    /^Cannot parse settings in ".*" at line 3, column 17: /,
  );
  assert.doesNotMatch(diagnostics[0]?.message ?? "", /\n/);
});

Deno.test("a truncated file is located at its end", () => {
  const { diagnostics } = parse('{\n  "model": ');

  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Cannot parse settings in "${PATH}" at line 2, column 12: Unexpected end of JSON input`,
  ]);
});

Deno.test("a file whose top level is not an object is an error and gives no settings", () => {
  const { settings, diagnostics } = parse('["Bash"]');

  assert.deepEqual(settings, {});
  assert.deepEqual(diagnostics, [{
    path: PATH,
    severity: "error",
    message: `Invalid settings in "${PATH}": the top level must be an object, found ["Bash"]`,
    fatal: true,
  }]);
});

Deno.test("a model that is not a string is reported and the other keys still load", () => {
  const { settings, diagnostics } = parse(
    '{"model": 4, "fallbackModel": "haiku", "apiKeyHelper": null}',
  );

  assert.deepEqual(settings, { fallbackModel: "haiku" });
  assert.deepEqual(diagnostics.map((d) => [d.severity, d.message]), [
    ["error", `Invalid settings in "${PATH}": model must be a string, found 4`],
    ["error", `Invalid settings in "${PATH}": apiKeyHelper must be a string, found null`],
  ]);
});

Deno.test("an env value that is not a string is dropped and the other variables kept", () => {
  const { settings, diagnostics } = parse('{"env": {"A": "1", "PORT": 8080, "my var": true}}');

  assert.deepEqual(settings, { env: { A: "1" } });
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Invalid settings in "${PATH}": env.PORT must be a string, found 8080`,
    `Invalid settings in "${PATH}": env["my var"] must be a string, found true`,
  ]);
});

Deno.test("env that is not an object is reported", () => {
  const { settings, diagnostics } = parse('{"env": ["A=1"]}');

  assert.deepEqual(settings, {});
  assert.deepEqual(diagnostics.map((d) => d.message), [
    `Invalid settings in "${PATH}": env must be an object of strings, found ["A=1"]`,
  ]);
});

Deno.test("a long value is quoted cut short", () => {
  const { diagnostics } = parse(JSON.stringify({ model: { name: "x".repeat(200) } }));

  const message = diagnostics[0]?.message ?? "";
  assert.match(message, /model must be a string, found \{"name":"xxx+…$/);
  assert.ok(message.length < 160);
});

Deno.test("a byte order mark at the start of the file is ignored", () => {
  assert.deepEqual(parse('\uFEFF{"model": "opus"}'), {
    settings: { model: "opus" },
    diagnostics: [],
  });
});

Deno.test("a __proto__ key stays an ordinary key of other", () => {
  const { settings } = parse('{"__proto__": {"polluted": true}}');

  assert.deepEqual(Object.keys(settings.other ?? {}), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(settings.other), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
});
