import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

const GOLDEN = new URL("./golden/", import.meta.url);
const LOGS = ["crash_resume.jsonl", "faults.jsonl", "six_tools.jsonl"];

Deno.test({
  name:
    "rein log import / export move a log into PostgreSQL and back byte for byte; replay --verify and state read it there",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    for (const [i, name] of LOGS.entries()) {
      const file = new URL(name, GOLDEN).pathname;
      const store = server.url(`golden${i}`);
      const imported = await runCli(["log", "import", file, "--store", store]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, /Imported \d+ events/);

      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(exported.stdout, await Deno.readTextFile(file), `${name}: byte for byte`);

      const replayed = await runCli(["replay", "--verify", "--store", store]);
      assert.equal(replayed.code, 0, `${replayed.stdout}${replayed.stderr}`);
      assert.match(replayed.stdout, /all match the log/);
      assert.doesNotMatch(replayed.stdout, /diverges/);

      // REIN_STORE selects the store as --store does.
      const fromEnv = await runCli(["state", "--json"], { env: { REIN_STORE: store } });
      const fromFile = await runCli(["state", file, "--json"]);
      assert.equal(fromEnv.code, 0, fromEnv.stderr);
      assert.equal(fromEnv.stdout, fromFile.stdout, `${name}: the same state`);

      const again = await runCli(["log", "import", file, "--store", store]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already holds \d+ events/);
    }
  },
});

Deno.test({
  name: "rein log import refuses a damaged log and writes nothing",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const dir = await Deno.makeTempDir();
    try {
      const text = await Deno.readTextFile(new URL("six_tools.jsonl", GOLDEN));
      const lines = text.split("\n");
      lines[3] = lines[3]!.replace('"seq":4', '"seq":40');
      const file = `${dir}/events.jsonl`;
      await Deno.writeTextFile(file, lines.join("\n"));
      const store = server.url("damaged");
      const imported = await runCli(["log", "import", file, "--store", store]);
      assert.equal(imported.code, 1);
      assert.match(imported.stderr, /line 4/);
      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(exported.stdout, "", "nothing was imported");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
