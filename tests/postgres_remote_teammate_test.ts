/**
 * The Done-when of issue 27 read strictly: one team, its lead on machine A and a teammate on
 * machine B, sharing one PostgreSQL log. Two git clones of one repository stand for the two hosts'
 * working copies (each with its own machine key). On B, `rein host --name machine-b` offers the
 * machine; on A, `rein -p` (the lead) makes a task graph, spawns alice (a process of its own) and
 * bob placed on machine-b (`spawn_teammate {host}`): B's host starts bob's process in B's clone.
 * Each takes one task from the shared graph by itself, each completion mails the lead (which a
 * letter wakes), and the lead's `-p` end shuts both down by the protocol: bob's process on B
 * exits. Then: seq is gapless, `rein state` and `rein team` show bob on host machine-b, and the
 * JSONL export replays with `--verify`.
 *
 * Then the lead of a second run is killed (SIGKILL) while its teammate carol, placed on B, idles:
 * its lease lapses and the host stops carol's process (no orphan on B); that lead resumed
 * (`--continue`) has carol back on B (its lease is held again) and shuts her down at its end.
 * Last, the host is stopped (SIGTERM) while a third lead's teammate erin works on it: it stops
 * her, records `host.left` and exits 0; her lead records her crashed, so its `-p` run ends.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { claimingTeammate, firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { openPool } from "../events/postgres/_pg.ts";
import { CLI, runCli } from "./_cli.ts";
import { startStoreView, twoClones } from "./_two_clones.ts";
import { CliProcess } from "./_cli_process.ts";
import { alive, ended, eventsOf, mailIn, teamEnv } from "./_team_e2e.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

/** How long a lease outlives its holder here (REIN_LEASE_MS): how soon a dead lead is seen. */
const LEASE_MS = 3_000;

Deno.test({
  name:
    "a lead on machine A places bob on machine B's rein host: bob works in B's clone, alice and bob take one task each of the shared graph, bob's mail wakes the lead, the -p end shuts both down, state and team show bob on host B, the export replays with --verify; a SIGKILLed lead's teammate on B is stopped when its lease lapses",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-remote-" }));
    const [a, b] = await twoClones(root);
    const store = server.url("remote");
    const sql = openPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, 1);
    const count = async (where: string) =>
      Number(
        (await sql.query<{ n: string }>(
          `select count(*)::text as n from rein_remote_events where ${where}`,
        ).catch(() => ({ rows: [{ n: "0" }] }))).rows[0]!.n,
      );
    const claimers = async () =>
      (await sql.query<{ agent: string }>(
        "select distinct agent from rein_remote_events where type = 'task.claimed'",
      )).rows.length;
    /** Resolves the second lead's wait (its turn goes on until then). */
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    /** Resolves erin's first request (she is at work until then). */
    let releaseErin = () => {};
    const erinHeld = new Promise<void>((resolve) => releaseErin = resolve);
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const messages = request.body?.messages ?? [];
        const first = firstUserText(messages);
        if (first === "wait for work") return claimingTeammate(request);
        if (first === "idle here") {
          if (!lastMessageText(request).includes("shutdown_request")) return message("Idle.");
          return message([toolUse("toolu_carol_bye", "respond_shutdown", { approve: true })]);
        }
        if (first === "hold here") return message("Held.");
        const last = lastMessageText(request);
        if (last === "split the work") {
          return message([
            toolUse("toolu_a", "create_task", { subject: "Alpha", description: "alpha.txt" }),
            toolUse("toolu_b", "create_task", { subject: "Beta", description: "beta.txt" }),
            toolUse("toolu_alice", "spawn_teammate", { name: "alice", prompt: "wait for work" }),
            toolUse("toolu_bob", "spawn_teammate", {
              name: "bob",
              prompt: "wait for work",
              host: "machine-b",
            }),
          ]);
        }
        if (last === "place erin") {
          return message([
            toolUse("toolu_erin", "spawn_teammate", {
              name: "erin",
              prompt: "hold here",
              host: "machine-b",
            }),
          ]);
        }
        if (last === "place carol") {
          return message([
            toolUse("toolu_nowhere", "spawn_teammate", {
              name: "dave",
              prompt: "idle here",
              host: "machine-z",
            }),
            toolUse("toolu_carol", "spawn_teammate", {
              name: "carol",
              prompt: "idle here",
              host: "machine-b",
            }),
          ]);
        }
        if (mailIn(request).length > 0) return message("Noted.");
        return message("On it.");
      },
      onRequest: async (request) => {
        const messages = request.body?.messages ?? [];
        const first = firstUserText(messages);
        // The second lead's turn goes on (it stays live) until the test has killed it.
        if (first === "place carol" && messages.length > 1) return await held;
        // Erin's first request is answered only at the end: she is at work when her host goes.
        if (first === "hold here") return await erinHeld;
        // The first teammate to claim a task works on it only once the other has claimed one
        // too: each gets one, whichever starts first.
        if (first !== "wait for work") return;
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
        // Both answer at once; the margin is for a loaded machine (a forced stop fails the test).
        REIN_SHUTDOWN_TIMEOUT_MS: "30000",
        REIN_LEASE_MS: String(LEASE_MS),
        // Two hosts: two machine keys.
        XDG_STATE_HOME: join(root, `state-${machine}`),
      });
    const host = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, "host", "--store", store, "--name", "machine-b"],
      cwd: b,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? root,
        NO_COLOR: "1",
        ...envOf("b"),
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const hostOutput = host.output();
    const exportLog = async () => {
      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      return exported.stdout;
    };
    const seenOf = (events: readonly Envelope[]) =>
      events.map((e) => `${e.seq} ${e.session.slice(0, 8)} ${e.agent} ${e.type}`).join("\n");
    try {
      let hostEnded = false;
      void host.status.then(() => hostEnded = true);
      const deadline = Date.now() + 60_000;
      while (await count("type = 'host.joined'") < 1 && Date.now() < deadline && !hostEnded) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (hostEnded) {
        throw new Error(`rein host ended: ${new TextDecoder().decode((await hostOutput).stderr)}`);
      }
      const flags = ["--permission-mode", "acceptEdits"];
      const run = await runCli(
        ["-p", "split the work", "--workspace", a, "--store", store, ...flags],
        { env: envOf("a"), cwd: a },
      );
      const lines = (await exportLog()).trimEnd().split("\n");
      const events = lines.map((line) => JSON.parse(line) as Envelope);
      const seen = seenOf(events);
      assert.equal(run.code, 0, `${run.stderr}\n${seen}`);
      // One total order: seq gapless from 1.
      assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1));
      const joined = eventsOf(events, "host.joined");
      assert.deepEqual(joined.map((e) => [e.data.name, e.data.folder]), [["machine-b", b]]);
      const [session] = eventsOf(events, "session.started").map((e) => e.session);
      const spawned = eventsOf(events, "agent.spawned").filter((e) => e.data.teammate);
      assert.deepEqual(
        spawned.map((e) => [e.agent, e.data.teammate?.host ?? null]),
        [["alice", null], ["bob", "machine-b"]],
      );
      // Bob's process was started once, by B's host (its pid is a process of B's host's tree):
      // the lead's started alice only.
      const started = eventsOf(events, "agent.started");
      assert.deepEqual(started.map((e) => e.agent).sort(), ["alice", "bob"], seen);
      const bobPid = started.find((e) => e.agent === "bob")!.data.process.pid;
      const bobFlags = started.find((e) => e.agent === "bob")!.data.process.flags;
      const writes = bobFlags.find((flag) => flag.startsWith("--allow-write="))!;
      assert.ok(writes.split(/[=,]/).includes(b), writes);
      assert.ok(!writes.split(/[=,]/).includes(a), writes);

      // Each task claimed once; each teammate took one and wrote it in its own clone.
      const claims = eventsOf(events, "task.claimed");
      assert.deepEqual(claims.map((e) => e.data.id).sort(), [1, 2], seen);
      assert.deepEqual(claims.map((e) => e.agent).sort(), ["alice", "bob"], seen);
      for (const claim of claims) {
        const subject = claim.data.id === 1 ? "alpha" : "beta";
        const [mine, other] = claim.agent === "bob" ? [b, a] : [a, b];
        assert.equal(
          await Deno.readTextFile(join(mine, `${subject}.txt`)),
          `${subject[0]!.toUpperCase()}${subject.slice(1)} done\n`,
        );
        assert.equal(
          await Deno.stat(join(other, `${subject}.txt`)).catch(() => undefined),
          undefined,
        );
      }
      // Bob's letter (his completion) woke the lead, which read it once.
      const letter = eventsOf(events, "mail.sent").find((e) =>
        e.agent === "bob" && e.data.recipients.includes("lead") &&
        /completed task #/.test(e.data.content)
      );
      assert.ok(letter, seen);
      const delivered = events.filter((e) =>
        e.session === session && e.agent === "lead" &&
        ((e.type === "arrival.injected" && e.data.source === "mail" &&
          e.data.key.split(",").includes(letter.data.id)) ||
          (e.type === "mail.read" && e.data.ids.includes(letter.data.id)))
      );
      assert.equal(delivered.length, 1, seen);
      assert.ok(
        fake.requests.some((request) =>
          firstUserText(request.body?.messages ?? []) === "split the work" &&
          mailIn(request).some((mail) => mail.from === "bob")
        ),
        "the lead asked the model with bob's letter",
      );
      // The -p end shut both down by the protocol: each approved, and its stop is recorded once
      // its turn ended, not forced (the lead's wait for bob's turn.ended, appended on B, sees it
      // however the lead's process caught up on it); bob's process on B ended.
      const stops = eventsOf(events, "agent.stopped");
      assert.deepEqual(
        stops.map((e) => [e.agent, e.data.reason, e.data.forced ?? false]).sort(),
        [["alice", "shutdown", false], ["bob", "shutdown", false]],
        seen,
      );
      assert.deepEqual(
        eventsOf(events, "protocol.answered").map((e) => [e.agent, e.data.approve]).sort(),
        [["alice", true], ["bob", true]],
        seen,
      );
      assert.ok(await ended(bobPid), "bob's process on B ended");

      // rein state and rein team read the database's log: bob is on host machine-b.
      const team = await runCli(["team", "--store", store]);
      assert.equal(team.code, 0, team.stderr);
      assert.match(team.stdout, /bob: stopped, [^\n]*on host machine-b/);
      const state = await runCli(["state", "--store", store]);
      assert.equal(state.code, 0, state.stderr);
      assert.match(state.stdout, /bob: stopped, [^\n]*on host machine-b/);
      // rein view reads it: the session is on its page, bob's host among its events.
      {
        await using view = await startStoreView(store, root);
        const page = await (await fetch(view.address)).text();
        assert.ok(page.includes(session!), page);
      }
      const path = join(root, "exported.jsonl");
      await Deno.writeTextFile(path, lines.join("\n") + "\n");
      const replayed = await runCli(["replay", "--log", path, "--verify", "--quiet"]);
      assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);

      // A second lead places carol on B (an unknown host is refused, naming the live one), then
      // dies by SIGKILL mid-turn: when its lease lapses, B's host stops carol's process.
      await using lead = new CliProcess(
        ["-p", "place carol", "--workspace", a, "--store", store, ...flags],
        envOf("a"),
      );
      let carol: Envelope | undefined;
      const until = Date.now() + 60_000;
      while (carol === undefined && Date.now() < until && lead.running) {
        const now = (await exportLog()).trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
        carol = eventsOf(now, "agent.started").find((e) => e.agent === "carol");
        if (carol === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (carol?.type !== "agent.started") assert.fail((await lead.kill()).stderr);
      const carolPid = carol.data.process.pid;
      assert.ok(alive(carolPid));
      await lead.kill();
      release();
      assert.ok(await ended(carolPid, LEASE_MS + 5_000), "carol's process outlived her lead");
      const after = (await exportLog()).trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
      const refused = eventsOf(after, "tool.completed").find((e) =>
        JSON.stringify(e.data).includes("machine-z")
      );
      assert.match(
        JSON.stringify(refused?.data),
        /Unknown host \\"machine-z\\": the live hosts are machine-b/,
      );
      // Carol is not stopped in the log: the lead resumed (--continue) has her back, as its
      // lease is held again, and its -p end shuts her down by the protocol.
      assert.equal(eventsOf(after, "agent.stopped").find((e) => e.agent === "carol"), undefined);
      const resumed = await runCli(
        ["--continue", "-p", "carol again", "--workspace", a, "--store", store, ...flags],
        { env: envOf("a"), cwd: a },
      );
      const back = (await exportLog()).trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
      assert.equal(resumed.code, 0, `${resumed.stderr}\n${seenOf(back)}`);
      const carolStarts = eventsOf(back, "agent.started").filter((e) => e.agent === "carol");
      assert.deepEqual(carolStarts.map((e) => e.data.restart), [0, 1], seenOf(back));
      assert.deepEqual(
        eventsOf(back, "agent.stopped").filter((e) => e.agent === "carol").map((e) => e.data),
        [{ reason: "shutdown" }],
      );
      assert.ok(await ended(carolStarts[1]!.data.process.pid), "carol's second process ended");

      // A third lead places erin on B; while she is at work, the host is stopped (SIGTERM): it
      // stops her, records that it left and exits 0, and her lead records her crashed (her host
      // is gone), so its -p run does not wait on her and ends.
      await using third = new CliProcess(
        ["-p", "place erin", "--workspace", a, "--store", store, ...flags],
        envOf("a"),
      );
      let erin: Envelope | undefined;
      const by = Date.now() + 60_000;
      while (erin === undefined && Date.now() < by && third.running) {
        const now = (await exportLog()).trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
        erin = eventsOf(now, "agent.started").find((e) => e.agent === "erin");
        if (erin === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (erin?.type !== "agent.started") assert.fail((await third.kill()).stderr);
      host.kill("SIGTERM");
      const out = await hostOutput;
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      assert.match(stderr, /rein host machine-b: running the teammates placed on it/);
      assert.equal(await count("type = 'host.left'"), 1);
      assert.ok(await ended(erin.data.process.pid), "erin's process ended with her host");
      releaseErin();
      const timeout = setTimeout(() => third.kill(), 30_000);
      const thirdOut = await third.output;
      clearTimeout(timeout);
      const last = (await exportLog()).trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
      const lastSeen = seenOf(
        last.filter((e) => e.session === erin.session || e.type === "host.left"),
      );
      assert.equal(
        thirdOut.signal,
        null,
        `the third lead's -p run waited on erin:\n${lastSeen}\n${thirdOut.stderr}`,
      );
      assert.equal(thirdOut.code, 0, thirdOut.stderr);
      assert.deepEqual(
        eventsOf(last, "agent.stopped").filter((e) => e.agent === "erin").map((e) => e.data),
        [{ reason: "crashed" }],
      );
    } finally {
      release();
      releaseErin();
      try {
        host.kill("SIGKILL");
      } catch {
        // It has exited.
      }
      await hostOutput.catch(() => {});
      await sql.end();
      killProcessesIn(a);
      killProcessesIn(b);
      await Deno.remove(root, { recursive: true });
    }
  },
});
