/**
 * How `rein -p` ends with a team: once the lead's turn has ended and no teammate works, every
 * live teammate (each in its own process) is asked to shut down through the protocol; one that
 * approves is stopped once its turn ends, one that does not answer is stopped by force at
 * REIN_SHUTDOWN_TIMEOUT_MS. rein then exits 0, its result counting the teammates' usage, and the
 * log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, EnvelopeOf, EventType } from "../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";

function eventsOf<T extends EventType>(events: readonly Envelope[], type: T): EnvelopeOf<T>[] {
  return events.filter((event): event is EnvelopeOf<T> => event.type === type);
}

async function readEvents(workspace: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(join(workspace, ".rein", "events.jsonl"));
  return text.trim().split("\n").map((line) => JSON.parse(line) as Envelope);
}

/**
 * The lead spawns bob, who says hi and goes idle; asked to shut down, bob approves (`answers`)
 * or only says so in text.
 */
function team(answers: boolean): FakeScriptFn {
  return (request) => {
    const messages = request.body?.messages ?? [];
    const last = JSON.stringify(messages.at(-1) ?? "");
    if (firstUserText(messages) === "Say hi") {
      if (last.includes("shutdown_request")) {
        return answers
          ? message([toolUse("toolu_bye", "respond_shutdown", { approve: true })])
          : message("I will keep going.");
      }
      return message("Hi.");
    }
    if (messages.length > 1) return message("Bob is on it.");
    return message([toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "Say hi" })]);
  };
}

async function runTeam(answers: boolean, format: string, extraEnv: Record<string, string> = {}) {
  const fake = await startFakeAnthropic({ script: team(answers) });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-end-" }));
  const env = {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "sk-test-key",
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
    ...extraEnv,
  };
  const cleanup = async () => {
    killProcessesIn(path);
    await fake[Symbol.asyncDispose]();
    await Deno.remove(path, { recursive: true });
  };
  try {
    const result = await runCli(
      [
        "-p",
        "start bob",
        "--workspace",
        path,
        "--permission-mode",
        "bypassPermissions",
        "--output-format",
        format,
        ...(format === "stream-json" ? ["--verbose"] : []),
      ],
      { env },
    );
    const events = await readEvents(path);
    const replay = await runCli(["replay", "--workspace", path, "--verify"], { env });
    const sessions = await runCli(["sessions", "--json", "--workspace", path], { env });
    return { result, events, replay, sessions, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** Usage summed over every model response of the log, as the result's `usage` counts it. */
function summedUsage(events: readonly Envelope[]) {
  const sum = { input_tokens: 0, output_tokens: 0 };
  for (const event of eventsOf(events, "model.responded")) {
    sum.input_tokens += event.data.usage.input_tokens;
    sum.output_tokens += event.data.usage.output_tokens;
  }
  return sum;
}

Deno.test("rein -p asks an idle teammate to shut down at its end; the teammate approves, is stopped, and the log replays", async () => {
  const { result, events, replay, sessions, cleanup } = await runTeam(true, "json");
  try {
    assert.equal(result.code, 0, result.stderr);
    const [request] = eventsOf(events, "protocol.requested");
    assert.ok(request, "a shutdown request was recorded");
    assert.deepEqual(
      [request.agent, request.data.kind, request.data.to, request.data.id],
      ["lead", "shutdown", "bob", "end-0-bob"],
    );
    assert.deepEqual(
      eventsOf(events, "protocol.answered").map((e) => [e.agent, e.data.id, e.data.approve]),
      [["bob", "end-0-bob", true]],
    );
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]),
      [["bob", { reason: "shutdown" }]],
    );
    assert.equal(eventsOf(events, "protocol.expired").length, 0);
    // The session ends after its team stopped.
    const ended = eventsOf(events, "session.ended")[0];
    const stopped = eventsOf(events, "agent.stopped")[0];
    assert.ok(ended && stopped && stopped.seq < ended.seq, "bob stopped before the session ended");
    // The result counts bob's usage with the lead's.
    const parsed = JSON.parse(result.stdout) as {
      usage: Record<string, number>;
      total_cost_usd: number;
    };
    const sum = summedUsage(events);
    assert.ok(eventsOf(events, "model.responded").some((e) => e.agent === "bob"));
    assert.equal(parsed.usage.input_tokens, sum.input_tokens);
    assert.equal(parsed.usage.output_tokens, sum.output_tokens);
    // `rein sessions` counts bob's cost with the lead's, as the result does.
    assert.equal(sessions.code, 0, sessions.stderr);
    const [listed] = JSON.parse(sessions.stdout) as { costUsd: number }[];
    assert.ok(parsed.total_cost_usd > 0);
    assert.equal(listed?.costUsd, parsed.total_cost_usd);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    await cleanup();
  }
});

Deno.test("rein -p stops a teammate that does not answer its shutdown request once REIN_SHUTDOWN_TIMEOUT_MS has passed", async () => {
  const { result, events, replay, cleanup } = await runTeam(false, "stream-json", {
    REIN_SHUTDOWN_TIMEOUT_MS: "300",
  });
  try {
    assert.equal(result.code, 0, result.stderr);
    // stderr says what the end waited for.
    assert.match(result.stderr, /⇄ lead asks bob: shutdown/);
    assert.match(result.stderr, /⇄ end-0-bob unanswered after 300 ms: stopped/);
    assert.deepEqual(
      eventsOf(events, "protocol.expired").map((e) => [e.agent, e.data.id, e.data.forced]),
      [["lead", "end-0-bob", true]],
    );
    assert.deepEqual(
      eventsOf(events, "agent.stopped").map((e) => [e.agent, e.data]),
      [["bob", { reason: "shutdown", forced: true }]],
    );
    // stream-json shows bob's answers with his name; the result counts his usage.
    const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const bobs = lines.filter((line) => line.type === "assistant" && line.agent === "bob");
    // His answer to the request shows too when it came before the timeout stopped him (300 ms:
    // a loaded machine may not give him the round).
    const said = bobs.map((line) => [line.message.content[0]?.text, line.parent_tool_use_id]);
    assert.deepEqual(said.slice(0, 1), [["Hi.", "toolu_bob"]]);
    assert.deepEqual(said.slice(1), said.length > 1 ? [["I will keep going.", "toolu_bob"]] : []);
    assert.ok(lines.filter((line) => line.type === "assistant" && line.agent === undefined).length);
    const final = lines.at(-1);
    assert.equal(final.type, "result");
    assert.equal(final.usage.output_tokens, summedUsage(events).output_tokens);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    await cleanup();
  }
});
