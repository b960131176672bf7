import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

Deno.test({
  name:
    "rein -p --store postgres://… keeps the session's log in the database (no file in the workspace); it exports, and replays with --verify",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-agent-" }));
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const last = JSON.stringify(request.body?.messages?.at(-1) ?? "");
        if (last.includes("toolu_write")) return message("Wrote it.");
        return message([toolUse("toolu_write", "write_file", { path: "note.txt", content: "hi" })]);
      },
    });
    try {
      const store = server.url("agent");
      const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" };
      const args = ["-p", "write a note", "--workspace", workspace, "--store", store];
      const run = await runCli([...args, "--permission-mode", "acceptEdits"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Wrote it\./);
      assert.equal(await Deno.readTextFile(join(workspace, "note.txt")), "hi");
      const file = await Deno.stat(join(workspace, ".rein", "events.jsonl")).catch(() => undefined);
      assert.equal(file, undefined, "no JSONL log: the database holds it");

      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      const types = exported.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).type);
      for (const type of ["session.started", "tool.requested", "tool.completed"]) {
        assert.ok(types.includes(type), `${type} in ${types.join(" ")}`);
      }
      const replayed = await runCli(["replay", "--verify", "--store", store]);
      assert.equal(replayed.code, 0, `${replayed.stdout}${replayed.stderr}`);
      assert.match(replayed.stdout, /all match the log/);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "a lead given its store in REIN_STORE takes it out of what its bash inherits, and the URL's password never reaches the log",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-env-" }));
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const last = JSON.stringify(request.body?.messages?.at(-1) ?? "");
        if (last.includes("toolu_env")) return message("Checked.");
        return message([
          toolUse("toolu_env", "bash", { command: 'echo "store=[${REIN_STORE:-}]"' }),
        ]);
      },
    });
    try {
      // Trust authentication ignores the password, so a made-up one shows where it would go.
      const store = server.url("envlead").replace("://postgres@", "://postgres:pw-s3cret-0042@");
      const env = {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "sk-test-key-0042",
        REIN_STORE: store,
      };
      const run = await runCli(
        ["-p", "check", "--workspace", workspace, "--allowedTools", "Bash"],
        { env },
      );
      assert.equal(run.code, 0, run.stderr);
      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /store=\[\]/, "bash saw no REIN_STORE");
      assert.ok(!exported.stdout.includes("pw-s3cret-0042"), "the password is not in the log");
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});
