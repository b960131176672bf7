/**
 * Two teammates racing for one task across processes (issue 24): two OS processes, each an idle
 * teammate of one session over one JSONL log, both see task i as theirs to claim, meet at a
 * barrier, then decide the claim under the log's lock as a woken teammate does. 100 runs: one
 * claim wins every time, and the loser records nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope, NewEvent } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { startedData } from "../testing/event_factory.ts";
import { tempDir } from "../testing/events.ts";
import { eventsOf, readLog } from "./_team_e2e.ts";

const RACER = new URL("./_claim_racer.ts", import.meta.url).pathname;
const RUNS = Number(Deno.env.get("RACE_RUNS") ?? "100");
const SESSION = "s-race";

/** The session: teams, tasks and autonomy on; alice and bob spawned, each idle after a turn. */
function setup(workspace: string): NewEvent[] {
  const at = (agent: string, type: string, data: unknown) =>
    ({ type, session: SESSION, agent, data }) as NewEvent;
  const teammate = (name: string) => [
    at(name, "agent.spawned", {
      parent: "lead",
      callId: `toolu_${name}`,
      type: "teammate",
      description: name,
      model: "claude-test",
      maxTokens: 1000,
      maxTurns: null,
      teammate: { prompt: "wait" },
    }),
    at(name, "turn.started", { roundsBefore: 0, maxTurns: null }),
    at(name, "turn.ended", { reason: "completed", rounds: 0 }),
  ];
  return [
    at("lead", "session.started", {
      ...startedData({ workspace }),
      settings: {
        sources: [],
        flags: {},
        home: "/nonexistent-home",
        interactive: false,
        env: { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1" },
        features: ["teams", "tasks", "autonomy"],
      },
    }),
    ...teammate("alice"),
    ...teammate("bob"),
  ];
}

Deno.test("two teammate processes racing for one task: one claim wins, every time (100 forced races)", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, ".rein", "events.jsonl");
  const barrier = join(dir.path, "barrier");
  await Deno.mkdir(barrier);
  const store = await openJsonlStore(log, { clock: () => new Date() });
  try {
    await store.append(setup(dir.path));
    const racers = [["alice", "bob"], ["bob", "alice"]].map(([agent, other]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--quiet", RACER, log, SESSION, agent!, other!, String(RUNS), barrier],
        stdout: "piped",
        stderr: "piped",
      }).output()
    );
    const done = (events: readonly Envelope[], id: number) =>
      events.some((e) => e.type === "task.completed" && e.data.id === id);
    for (let id = 1; id <= RUNS; id++) {
      await store.append([{
        type: "task.created",
        session: SESSION,
        agent: "lead",
        data: { id, subject: `task ${id}`, description: "", blockedBy: [] },
      }]);
      const deadline = Date.now() + 30_000;
      while (!done(await readLog(log), id)) {
        if (Date.now() > deadline) {
          const met = [...Deno.readDirSync(barrier)].map((entry) => entry.name).sort();
          const tail = (await readLog(log)).slice(-6).map((e) => `${e.seq} ${e.agent} ${e.type}`);
          throw new Error(`Task ${id} was never completed: ${met.join(" ")}\n${tail.join("\n")}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    const outputs = await Promise.all(racers);
    const lines = outputs.map((out) => {
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      return new TextDecoder().decode(out.stdout).trim().split("\n");
    });
    for (let id = 1; id <= RUNS; id++) {
      // Both met at the barrier for every run, so both decided it: exactly one won.
      const said = lines.map((own) => own[id - 1]);
      assert.deepEqual(said.map((line) => line?.split(" ")[0]), [String(id), String(id)]);
      assert.equal(said.filter((line) => line?.endsWith(" won")).length, 1, `run ${id}: ${said}`);
    }
    const events = await readLog(log);
    const claims = eventsOf(events, "task.claimed");
    assert.equal(claims.length, RUNS, "one task.claimed per task: the loser recorded nothing");
    assert.deepEqual(claims.map((e) => e.data.id), Array.from({ length: RUNS }, (_, i) => i + 1));
    const arrivals = eventsOf(events, "arrival.injected");
    assert.equal(arrivals.length, RUNS);
    // Each claim and its arrival are one append by its winner, adjacent in the log.
    for (const claim of claims) {
      const next = events.find((e) => e.seq === claim.seq + 1);
      assert.equal(next?.type, "arrival.injected");
      assert.equal(next?.agent, claim.agent);
    }
  } finally {
    await store.close();
  }
});
