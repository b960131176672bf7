import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { openPool } from "../events/postgres/_pg.ts";
import { machineKeyPath, readMachineKey } from "../core/effects/machine_key.ts";
import { snapshotText } from "../core/snapshots/snapshot_files.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

/** One row of a log's snapshot table. */
interface SnapshotRow {
  machine: string;
  name: string;
  seq: string;
  text: string;
}

Deno.test({
  name:
    "an agent on a PostgreSQL log keeps its snapshots in the log's snapshot table and resumes from them; state reads them; a changed one is ignored, and replay --verify names it",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-snap-" }));
    const stateHome = await Deno.makeTempDir({ prefix: "rein-pg-snap-key-" });
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const last = JSON.stringify(request.body?.messages?.at(-1) ?? "");
        if (last.includes("toolu_write")) return message("Wrote it.");
        if (last.includes("again")) return message("Again, done.");
        return message([toolUse("toolu_write", "write_file", { path: "a.txt", content: "a" })]);
      },
    });
    const sql = openPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, 1);
    try {
      const store = server.url("snaps");
      const env = {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "sk-test",
        XDG_STATE_HOME: stateHome,
      };
      const base = ["--workspace", workspace, "--store", store, "--permission-mode", "acceptEdits"];
      const first = await runCli(["-p", "write a", ...base], { env });
      assert.equal(first.code, 0, first.stderr);
      const snapshots = async () =>
        (await sql.query<SnapshotRow>(
          "select machine, name, seq::text as seq, text from rein_snaps_snapshots order by name",
        )).rows;
      const taken = await snapshots();
      const key = await readMachineKey(
        machineKeyPath((n) => n === "XDG_STATE_HOME" ? stateHome : undefined)!,
      );
      assert.ok(key !== undefined);
      const events = Number(
        (await sql.query<{ n: string }>("select max(seq)::text as n from rein_snaps_events"))
          .rows[0]!
          .n,
      );
      const catalog = taken.find((row) => row.name.startsWith("catalog-"));
      const session = taken.find((row) => row.name.startsWith("sessions/"));
      assert.ok(
        catalog !== undefined && session !== undefined,
        JSON.stringify(taken.map((r) => r.name)),
      );
      assert.equal(catalog.name, `catalog-${String(events).padStart(12, "0")}.json`);
      assert.equal(Number(catalog.seq), events);
      assert.equal(catalog.machine, key.id, "kept by the machine that signed it");
      // Its header is a snapshot file's of the log's JSONL form: the place is where the line of
      // its seq ends in the export.
      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      const header = JSON.parse(catalog.text.slice(0, catalog.text.indexOf("\n")));
      assert.equal(header.offset, new TextEncoder().encode(exported.stdout).length);
      assert.equal(header.kind, "catalog");

      // Resumed from the snapshots: an event before them that no longer decodes is never read.
      const original = (await sql.query<{ line: string }>(
        "select line from rein_snaps_events where seq = 2",
      )).rows[0]!.line;
      const damaged = '{"v":1,"seq":2,';
      await sql.query("update rein_snaps_events set line = $1 where seq = 2", [damaged]);
      const again = await runCli(["-p", "again", "--continue", ...base], { env });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /Again, done\./);
      // Snapshots changed in the table (their bodies no longer their checksums) are not trusted.
      const [newest] = (await snapshots()).filter((row) => row.name.startsWith("catalog-"))
        .reverse();
      assert.ok(newest !== undefined && Number(newest.seq) > events, "a new catalog snapshot");
      const sessions = (await snapshots()).filter((row) => row.name.startsWith("sessions/"));
      const spoiled = newest.text.replace('"order":[', '"order":["forged",');
      await sql.query("update rein_snaps_snapshots set text = $1 where name = $2", [
        spoiled,
        newest.name,
      ]);
      for (const row of sessions) {
        await sql.query("update rein_snaps_snapshots set text = $1 where name = $2", [
          row.text.replace('"view":{', '"view":{"x":1,'),
          row.name,
        ]);
      }
      // replay --verify checks the database's snapshots as it checks files: the changed ones fail
      // it, by name.
      await sql.query("update rein_snaps_events set line = $1 where seq = 2", [original]);
      const verified = await runCli(["replay", "--verify", "--store", store], { env });
      assert.notEqual(verified.code, 0, verified.stdout);
      assert.match(verified.stdout + verified.stderr, /cannot be trusted: bad checksum/);
      assert.match(verified.stdout + verified.stderr, new RegExp(newest.name.replace(".", "\\.")));

      // A start reads neither: it folds the session from its first event, and meets the damaged
      // line.
      await sql.query("update rein_snaps_events set line = $1 where seq = 2", [damaged]);
      const refused = await runCli(["-p", "again", "--continue", ...base], { env });
      assert.notEqual(refused.code, 0, "folded from the start, it meets the damaged line");
      assert.match(refused.stderr, /seq 2|line 2|event 2/);

      await sql.query("update rein_snaps_events set line = $1 where seq = 2", [original]);

      // rein state reads the catalog from the newest snapshot that holds: one signed here with a
      // title of its own shows it (the log alone would not).
      const body = JSON.parse(newest.text.slice(newest.text.indexOf("\n") + 1));
      const id = body.catalog.order[0];
      body.catalog.byId[id].firstPrompt = "from the snapshot table";
      const { layout: _l, fingerprint: _f, checksum: _c, machine: _m, mac: _mac, ...rest } = JSON
        .parse(newest.text.slice(0, newest.text.indexOf("\n")));
      await sql.query("update rein_snaps_snapshots set text = $1 where name = $2", [
        await snapshotText(rest, JSON.stringify(body), key),
        newest.name,
      ]);
      const state = await runCli(["sessions", "--store", store], { env });
      assert.equal(state.code, 0, state.stderr);
      assert.match(state.stdout, /from the snapshot table/);
      const plain = await runCli(["sessions", "--store", store], {
        env: { ...env, XDG_STATE_HOME: `${stateHome}/other` },
      });
      assert.equal(plain.code, 0, plain.stderr);
      assert.doesNotMatch(plain.stdout, /from the snapshot table/, "another machine's: not read");
    } finally {
      await sql.end();
      await Deno.remove(workspace, { recursive: true });
      await Deno.remove(stateHome, { recursive: true });
    }
  },
});
