/**
 * The Done-when of issue 27: a team spread over two "machines" sharing one PostgreSQL log. Two
 * separate git clones of one repository stand for two hosts' working copies (each with its own
 * machine key, as two hosts have). On machine A, `rein -p` (a lead) makes a task graph (Gamma
 * waits for Alpha and Beta) and spawns teammate bob; on machine B, a second `rein -p` on the same
 * store spawns teammate carol: four processes, two working copies, one log. The teammates find
 * their work on the workspace-wide task graph by themselves (core/autonomy: claims decided under
 * the log's lock on caught-up state, woken by NOTIFY), each in its own clone; each completion
 * mails its own lead. Then: seq is gapless, each task was claimed once, each letter reached its
 * lead once, `rein state`/`tasks`/`sessions --store` and `rein view --store` read the log, and its
 * JSONL export replays with `--verify`.
 *
 * Mail stays within a session (core/mail: the team is one session's agents), so machine B's
 * process joins the work as a second lead with its own teammate, not as a teammate of A's lead:
 * a lead's process starts and supervises its teammates' processes on its own host.
 *
 * Each machine's session claimed tasks on a graph the other session changed too (created its
 * tasks, claimed some): replay feeds each session the other's events at their places, and starts
 * it from the catalog the log had when it began, so both sessions verify.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { claimingTeammate, firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { openPool } from "../events/postgres/_pg.ts";
import { runCli } from "./_cli.ts";
import { startStoreView, twoClones } from "./_two_clones.ts";
import { eventsOf, mailIn, teamEnv } from "./_team_e2e.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

const PASSWORD = "pw-tw0-mach1nes";

Deno.test({
  name:
    "two machines (two clones, two machine keys) share one PostgreSQL log: a lead and bob on A, a lead and carol on B take the task graph's work once each, mail reaches each lead once, seq is gapless, state, tasks, sessions and view read it, the export is the same log",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-two-" }));
    const [a, b] = await twoClones(root);
    const store = server.url("two").replace("://postgres@", `://postgres:${PASSWORD}@`);
    const sql = openPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, 1);
    const count = async (where: string) =>
      Number(
        (await sql.query<{ n: string }>(
          `select count(*)::text as n from rein_two_events where ${where}`,
        ).catch(() => ({ rows: [{ n: "0" }] }))).rows[0]!.n,
      );
    const claimers = async () =>
      (await sql.query<{ agent: string }>(
        "select distinct agent from rein_two_events where type = 'task.claimed'",
      )).rows.length;
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const messages = request.body?.messages ?? [];
        if (firstUserText(messages) === "wait for work") return claimingTeammate(request);
        const last = lastMessageText(request);
        if (last === "split the work") {
          return message([
            toolUse("toolu_a", "create_task", { subject: "Alpha", description: "alpha.txt" }),
            toolUse("toolu_b", "create_task", { subject: "Beta", description: "beta.txt" }),
            toolUse("toolu_c", "create_task", { subject: "Gamma", blockedBy: [1, 2] }),
            toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "wait for work" }),
          ]);
        }
        if (last === "join the work") {
          return message([
            toolUse("toolu_carol", "spawn_teammate", { name: "carol", prompt: "wait for work" }),
          ]);
        }
        if (mailIn(request).length > 0) return message("Noted.");
        return message("On it.");
      },
      // The first teammate to claim a task works on it only once the other (on the other
      // machine) has claimed one too: each machine gets work, whichever starts first.
      onRequest: async (request) => {
        if (firstUserText(request.body?.messages ?? []) !== "wait for work") return;
        if (!/claimed task #\d+ of the task graph by yourself/.test(lastMessageText(request))) {
          return;
        }
        const deadline = Date.now() + 60_000;
        while (await claimers() < 2 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
    });
    const envOf = (machine: string) =>
      teamEnv(fake.url, {
        REIN_IDLE_TIMEOUT_MS: "3000",
        REIN_SHUTDOWN_TIMEOUT_MS: "300",
        // Two hosts: two machine keys (each keeps its own snapshots in the log's table).
        XDG_STATE_HOME: join(root, `state-${machine}`),
      });
    try {
      const flags = ["--permission-mode", "acceptEdits"];
      const runA = runCli(["-p", "split the work", "--workspace", a, "--store", store, ...flags], {
        env: envOf("a"),
        cwd: a,
      });
      // Machine B joins once A's task graph is in the log (its URL in the environment here).
      const deadline = Date.now() + 60_000;
      while (await count("type = 'task.created'") < 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const runB = runCli(["-p", "join the work", "--workspace", b, ...flags], {
        env: { ...envOf("b"), REIN_STORE: store },
        cwd: b,
      });
      const [outA, outB] = await Promise.all([runA, runB]);
      assert.equal(outA.code, 0, `machine A: ${outA.stderr}`);
      assert.equal(outB.code, 0, `machine B: ${outB.stderr}`);
      for (const dir of [a, b]) {
        const file = await Deno.stat(join(dir, ".rein", "events.jsonl")).catch(() => undefined);
        assert.equal(file, undefined, `no JSONL log in ${dir}: the database holds it`);
      }

      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.ok(!exported.stdout.includes(PASSWORD), "the password is not in the log");
      const events = exported.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
      const seen = events.map((e) => `${e.seq} ${e.agent} ${e.type}`).join("\n");
      // One total order: seq gapless from 1.
      assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));

      // Two sessions, one per machine, each in its own clone.
      const starts = eventsOf(events, "session.started");
      assert.equal(starts.length, 2, seen);
      const sessionOf = (dir: string) => starts.find((e) => e.data.workspace === dir)?.session;
      const [sessionA, sessionB] = [sessionOf(a), sessionOf(b)];
      assert.ok(sessionA && sessionB && sessionA !== sessionB, seen);
      const spawned = eventsOf(events, "agent.started");
      assert.deepEqual(
        spawned.map((e) => [e.session, e.agent]).sort(),
        [
          [sessionA, "bob"],
          [sessionB, "carol"],
        ].sort(),
      );

      // Each task claimed once (by itself, no claim_task call), completed once; each machine
      // took work on the shared graph, and did it in its own working copy.
      const claims = eventsOf(events, "task.claimed");
      assert.deepEqual(claims.map((e) => e.data.id).sort(), [1, 2, 3], seen);
      const byAgent = new Map(claims.map((e) => [e.data.id, e]));
      assert.deepEqual(new Set(claims.map((e) => e.agent)), new Set(["bob", "carol"]), seen);
      assert.deepEqual(eventsOf(events, "task.completed").map((e) => e.data.id).sort(), [1, 2, 3]);
      for (const [id, subject] of [[1, "alpha"], [2, "beta"], [3, "gamma"]] as const) {
        const claim = byAgent.get(id)!;
        const [mine, other] = claim.agent === "bob" ? [a, b] : [b, a];
        assert.equal(claim.session, claim.agent === "bob" ? sessionA : sessionB);
        assert.equal(
          await Deno.readTextFile(join(mine, `${subject}.txt`)),
          `${subject[0]!.toUpperCase() + subject.slice(1)} done\n`,
        );
        assert.equal(
          await Deno.stat(join(other, `${subject}.txt`)).catch(() => undefined),
          undefined,
        );
      }

      // Each completion mailed its own lead, and each letter reached it once.
      const letters = eventsOf(events, "mail.sent").filter((e) =>
        e.agent !== "lead" && e.data.recipients.includes("lead")
      );
      const mail = letters.map((e) => `${e.seq} ${e.agent}: ${e.data.content}`).join("\n");
      assert.deepEqual(
        letters.filter((e) => /completed task #/.test(e.data.content)).map((e) => e.agent).sort(),
        claims.map((e) => e.agent).sort(),
        mail,
      );
      // (A shutdown's answer may come after its lead's session ended: only the completions.)
      for (const letter of letters.filter((e) => /completed task #/.test(e.data.content))) {
        assert.equal(letter.session, letter.agent === "bob" ? sessionA : sessionB);
        const delivered = events.filter((e) =>
          e.session === letter.session && e.agent === "lead" &&
          ((e.type === "arrival.injected" && e.data.source === "mail" &&
            e.data.key.split(",").includes(letter.data.id)) ||
            (e.type === "mail.read" && e.data.ids.includes(letter.data.id)))
        );
        assert.equal(delivered.length, 1, `letter ${letter.data.id}:\n${seen}`);
      }
      // Each machine keeps its own snapshots of the log.
      const machines = await sql.query<{ machine: string }>(
        "select distinct machine from rein_two_snapshots",
      );
      assert.equal(machines.rows.length, 2);

      // rein state, tasks and sessions read the database's log.
      const state = await runCli(["state", "--store", store, "--json"]);
      assert.equal(state.code, 0, state.stderr);
      const folded = JSON.parse(state.stdout);
      assert.equal(folded.lastSeq ?? events.length, events.length);
      const tasks = await runCli(["tasks", "--store", store]);
      assert.equal(tasks.code, 0, tasks.stderr);
      for (const subject of ["Alpha", "Beta", "Gamma"]) {
        assert.match(tasks.stdout, new RegExp(subject));
      }
      const sessions = await runCli(["sessions", "--store", store]);
      assert.equal(sessions.code, 0, sessions.stderr);
      assert.ok(
        sessions.stdout.includes(sessionA.slice(0, 8)) &&
          sessions.stdout.includes(sessionB.slice(0, 8)),
      );

      // rein view reads it: both machines' sessions are on its page.
      {
        await using view = await startStoreView(store, root);
        assert.doesNotMatch(view.printed, new RegExp(PASSWORD));
        const page = await (await fetch(view.address)).text();
        assert.ok(page.includes(sessionA) && page.includes(sessionB), page);
        assert.doesNotMatch(page, new RegExp(PASSWORD));
      }

      // The JSONL export is the database's log: both sessions replay from it and from the
      // database with --verify, state folds it alike from both, and imported into a new log of
      // the database it exports byte for byte again.
      const path = join(root, "exported.jsonl");
      await Deno.writeTextFile(path, exported.stdout);
      for (const from of [["--log", path], ["--store", store]]) {
        const replayed = await runCli(["replay", ...from, "--verify", "--quiet"]);
        assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
        assert.equal(replayed.stdout.match(/✓ session/g)?.length, 2, replayed.stdout);
      }
      const fromFile = await runCli(["state", "--log", path, "--json"]);
      assert.equal(fromFile.code, 0, fromFile.stderr);
      assert.equal(fromFile.stdout, state.stdout);
      const copy = server.url("copied");
      const imported = await runCli(["log", "import", path, "--store", copy]);
      assert.equal(imported.code, 0, imported.stderr);
      const again = await runCli(["log", "export", "--store", copy]);
      assert.equal(again.stdout, exported.stdout);
    } finally {
      await sql.end();
      killProcessesIn(a);
      killProcessesIn(b);
      await Deno.remove(root, { recursive: true });
    }
  },
});
