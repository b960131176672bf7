/**
 * A team on a PostgreSQL log: `rein -p --store postgres://…` starts its teammate's process on the
 * same store (the URL passed in its environment, not its argv; the process's Deno flags reach the
 * database's host only), the teammate's mail reaches the lead through the database, no JSONL log
 * is written in the workspace, the URL's password is nowhere in the log, and the exported log
 * replays with `--verify`; `rein sessions`, `rein tasks` and `rein team` read the database's log
 * (`--store` or `REIN_STORE`) as they read the exported file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { eventsOf, teamEnv } from "./_team_e2e.ts";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

Deno.test({
  name:
    "rein -p --store postgres://… with a team: the teammate's process runs on the same database (net to its host only, the password in no argv or event), its mail reaches the lead, the export replays with --verify, and rein sessions, tasks and team read the database",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-team-" }));
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const messages = request.body?.messages ?? [];
        if (firstUserText(messages) === "Count the files") {
          if (messages.length === 1) {
            // What bob runs does not see the store's URL (it may hold the password).
            return message([
              toolUse("toolu_env", "bash", { command: 'echo "store=[${REIN_STORE:-}]"' }),
            ]);
          }
          if (messages.length > 3) return message("Sent.");
          return message([
            toolUse("toolu_mail", "send_message", { to: "team-lead", content: "bob: 3 files" }),
          ]);
        }
        if (JSON.stringify(messages.at(-1)).includes("bob: 3 files")) {
          return message("Bob counted 3 files.");
        }
        if (messages.length > 1) return message("Bob is on it.");
        return message([
          toolUse("toolu_task", "create_task", { subject: "Count the files" }),
          toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "Count the files" }),
        ]);
      },
    });
    try {
      // Trust authentication: the server ignores the password, which must not leak anywhere.
      const password = "s3cret-pw";
      const store = server.url("team").replace("postgres@", `postgres:${password}@`);
      const env = teamEnv(fake.url, { REIN_SHUTDOWN_TIMEOUT_MS: "300" });
      const run = await runCli(
        [
          "-p",
          "start bob",
          "--workspace",
          workspace,
          "--store",
          store,
          "--permission-mode",
          "bypassPermissions",
        ],
        { env },
      );
      const exported = await runCli(["log", "export", "--store", store]);
      assert.equal(exported.code, 0, exported.stderr);
      const seen = exported.stdout.trimEnd().split("\n").map((line) => {
        const e = JSON.parse(line) as Envelope;
        return `${e.seq} ${e.agent} ${e.type} ${JSON.stringify(e.data).slice(0, 300)}`;
      }).join("\n");
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Bob counted 3 files\./, `${run.stderr}\n${seen}`);
      const file = await Deno.stat(join(workspace, ".rein", "events.jsonl")).catch(() => undefined);
      assert.equal(file, undefined, "no JSONL log: the database holds the team's log");

      const leaked = exported.stdout.split("\n").filter((line) => line.includes(password));
      assert.deepEqual(leaked, [], "the store's password is not in the log");
      const events = exported.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Envelope);
      const started = eventsOf(events, "agent.started");
      assert.equal(started.length, 1, "bob's process was started once");
      const flags = started[0]?.data.process.flags ?? [];
      const net = flags.filter((flag) => flag.startsWith("--allow-net="));
      assert.deepEqual(
        net.flatMap((flag) => flag.slice("--allow-net=".length).split(",")).sort(),
        [new URL(fake.url).host, `127.0.0.1:${server.port}`].sort(),
        `bob's process reaches the model and the database only: ${flags.join(" ")}`,
      );
      // Bob's own turn is in the database's log: his process appended to it.
      const bobTools = events.filter((e) => e.agent === "bob" && e.type === "tool.completed");
      assert.ok(bobTools.length > 0, "bob's send_message was recorded in the database's log");
      const echoed = bobTools.find((e) => JSON.stringify(e.data).includes("toolu_env"));
      assert.match(JSON.stringify(echoed?.data), /store=\[\]/, "bob's bash has no REIN_STORE");
      const mail = events.filter((e) =>
        e.agent === "bob" && JSON.stringify(e.data).includes("bob: 3 files")
      );
      assert.ok(mail.length > 0, "bob's mail is in the database's log");

      const path = join(workspace, "exported.jsonl");
      await Deno.writeTextFile(path, exported.stdout);
      const replayed = await runCli([
        "replay",
        "--verify",
        "--log",
        path,
        "--workspace",
        workspace,
      ]);
      assert.equal(replayed.code, 0, `${replayed.stdout}${replayed.stderr}`);
      assert.match(replayed.stdout, /all match the log/);

      // rein sessions and rein tasks read the database's log (--store, or REIN_STORE) as the file.
      const sessions = await runCli(["sessions", "--store", store, "--json"]);
      assert.equal(sessions.code, 0, sessions.stderr);
      const sessionsOfFile = await runCli(["sessions", "--log", path, "--json"]);
      assert.equal(sessions.stdout, sessionsOfFile.stdout);
      assert.ok(sessions.stdout.includes(events[0]?.session ?? "?"), sessions.stdout);
      const tasks = await runCli(["tasks"], { env: { REIN_STORE: store } });
      assert.equal(tasks.code, 0, tasks.stderr);
      assert.match(tasks.stdout, /Count the files/);
      const tasksOfFile = await runCli(["tasks", path]);
      assert.equal(tasks.stdout, tasksOfFile.stdout);
      const tasksJson = await runCli(["tasks", "--store", store, "--json"]);
      assert.equal(tasksJson.code, 0, tasksJson.stderr);
      assert.equal(tasksJson.stdout, (await runCli(["tasks", path, "--json"])).stdout);
      const team = await runCli(["team", "--store", store, "--json"]);
      assert.equal(team.code, 0, team.stderr);
      assert.match(team.stdout, /"bob"/);
      assert.equal(team.stdout, (await runCli(["team", path, "--json"])).stdout);
    } finally {
      killProcessesIn(workspace);
      await Deno.remove(workspace, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "rein -p --continue --store postgres://… resumes the session from the database's log: the model sees the earlier turn",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-resume-" }));
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const seen = JSON.stringify(request.body?.messages ?? []);
        return message(seen.includes("remember 42") ? "You said 42." : "Noted.");
      },
    });
    try {
      const store = server.url("resume");
      const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test-key" };
      const first = await runCli(
        ["-p", "remember 42", "--workspace", workspace, "--store", store],
        {
          env,
        },
      );
      assert.equal(first.code, 0, first.stderr);
      const again = await runCli(
        ["--continue", "-p", "what did I say?", "--workspace", workspace, "--store", store],
        { env },
      );
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /You said 42\./);
      const file = await Deno.stat(join(workspace, ".rein", "events.jsonl")).catch(() => undefined);
      assert.equal(file, undefined, "no JSONL log: the database holds it");
      const replayed = await runCli(["replay", "--verify", "--store", store]);
      assert.equal(replayed.code, 0, `${replayed.stdout}${replayed.stderr}`);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});
