/**
 * Teammates, end to end: rein run as a person runs it against the fake model, with teams enabled
 * (`CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS`). The lead spawns teammates with `spawn_teammate` and
 * with Claude Code's `Agent` carrying a `name`; each is recorded as its own `agent.spawned` with
 * its role, mode and prompt; a taken name gets `-2`, the lead's names are refused; `rein team`
 * and `rein state` list the roster; the log replays with `--verify`. With teams off there is no
 * spawn_teammate and `task` has no `name`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";

// A teammate left idle is asked to shut down when -p ends: one that does not answer is not waited
// for long.
const TEAMS = { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1", REIN_SHUTDOWN_TIMEOUT_MS: "300" };

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

async function readEvents(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
}

/** The results of the calls in a request's last message, by call id. */
function results(request: RecordedRequest | undefined): Record<string, string> {
  const content = request?.body?.messages.at(-1)?.content;
  const found: Record<string, string> = {};
  if (typeof content === "string") return found;
  for (const block of content ?? []) {
    if (block.type === "tool_result") {
      found[String(block.tool_use_id)] = JSON.stringify(block.content);
    }
  }
  return found;
}

async function workspace(): Promise<{ path: string; log: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-" }));
  return {
    path,
    log: join(path, ".rein", "events.jsonl"),
    async [Symbol.asyncDispose]() {
      killProcessesIn(path);
      await Deno.remove(path, { recursive: true });
    },
  };
}

/**
 * The lead spawns alice (a plan-mode reviewer), alice again, bob through `task` with a `name`,
 * and one named `team-lead`; then it answers. A teammate's own request is answered at once.
 */
const spawning: FakeScriptFn = (request) => {
  const first = firstUserText(request.body?.messages ?? []);
  if (first !== "build a team") return message("On it.");
  if (Object.keys(results(request)).length > 0) return message("Team spawned.");
  return message([
    toolUse("toolu_alice", "spawn_teammate", {
      name: "alice",
      prompt: "Review x.ts",
      role: "reviewer",
      mode: "plan",
    }),
    toolUse("toolu_alice2", "spawn_teammate", { name: "alice", prompt: "Review y.ts" }),
    toolUse("toolu_bob", "task", {
      name: "bob",
      description: "tester",
      prompt: "Test x.ts",
      model: "haiku",
    }),
    toolUse("toolu_lead", "spawn_teammate", { name: "team-lead", prompt: "Lead" }),
  ]);
};

Deno.test("the lead spawns teammates: recorded as their own agent.spawned, listed by rein team and rein state, and the log replays", async () => {
  await using fake = await startFakeAnthropic({ script: spawning });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
  const out = await runCli(["-p", "build a team", "--workspace", ws.path], { env });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim(), "Team spawned.");
  const leadRequests = fake.requests.filter((request) =>
    firstUserText(request.body?.messages ?? []) === "build a team"
  );
  const tools = (leadRequests[0]?.body?.tools ?? []).map((tool) => String(tool.name));
  assert.ok(tools.includes("spawn_teammate"), tools.join(", "));
  const answers = results(leadRequests.at(-1));
  assert.match(answers.toolu_alice ?? "", /Spawned teammate \\"alice\\"/);
  assert.match(
    answers.toolu_alice2 ?? "",
    /Spawned teammate \\"alice-2\\" \(\\"alice\\" was taken\)/,
  );
  assert.match(answers.toolu_bob ?? "", /Spawned teammate \\"bob\\"/);
  assert.match(
    answers.toolu_lead ?? "",
    /Invalid teammate name \\"team-lead\\": it names the lead/,
  );

  const events = await readEvents(ws.log);
  const spawned = eventsOf(events, "agent.spawned");
  assert.deepEqual(
    spawned.map((e) => [e.agent, e.data.parent, e.data.callId, e.data.teammate]),
    [
      ["alice", "lead", "toolu_alice", { role: "reviewer", mode: "plan", prompt: "Review x.ts" }],
      ["alice-2", "lead", "toolu_alice2", { prompt: "Review y.ts" }],
      ["bob", "lead", "toolu_bob", { role: "tester", prompt: "Test x.ts" }],
    ],
  );
  // The spawn is recorded before the call's result.
  const spawnAt = events.findIndex((e) => e.type === "agent.spawned" && e.agent === "alice");
  const doneAt = events.findIndex((e) =>
    e.type === "tool.completed" && e.data.callId === "toolu_alice"
  );
  assert.ok(spawnAt >= 0 && spawnAt < doneAt);
  assert.match(spawned[2]?.data.model ?? "", /haiku/);

  const team = await runCli(["team", ws.log, "--json"]);
  assert.equal(team.code, 0, team.stderr);
  const roster = JSON.parse(team.stdout) as { name: string; role: string | null; mode: string }[];
  assert.deepEqual(
    roster.map((entry) => [entry.name, entry.role, entry.mode]),
    [["alice", "reviewer", "plan"], ["alice-2", null, null], ["bob", "tester", null]],
  );
  const text = await runCli(["team", ws.log]);
  assert.match(text.stdout, /alice \(reviewer\): \w+, claude-[^,]+, mode plan/);
  const state = await runCli(["state", ws.log]);
  assert.equal(state.code, 0, state.stderr);
  assert.match(state.stdout, /\nteam\n\s+\S+ alice \(reviewer\): /);

  const replay = await runCli(["replay", ws.log, "--verify", "--quiet"]);
  assert.equal(replay.code, 0, `replay --verify failed:\n${replay.stdout}${replay.stderr}`);
});

Deno.test("with teams off there is no spawn_teammate, task has no name, and rein team lists nobody", async () => {
  await using fake = await startFakeAnthropic({ script: () => message("Alone.") });
  await using ws = await workspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test" };
  const out = await runCli(["-p", "hi", "--workspace", ws.path], { env });
  assert.equal(out.code, 0, out.stderr);
  const tools = fake.requests[0]?.body?.tools ?? [];
  assert.ok(!tools.some((tool) => tool.name === "spawn_teammate"));
  const task = tools.find((tool) => tool.name === "task");
  const properties = (task?.input_schema as { properties?: Record<string, unknown> })?.properties;
  assert.ok(properties !== undefined && !("name" in properties));
  const team = await runCli(["team", ws.log]);
  assert.match(team.stdout, /No teammates in /);
});
