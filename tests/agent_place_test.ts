/**
 * Agent placement: an agent given a folder of the workspace (`agent.spawned`'s `cwd`) works there.
 * Its file tools are confined to the folder and take relative paths from it, bash starts there,
 * and the bwrap sandbox lets commands change only that folder. A folder that is a symbolic link
 * out of the workspace stops every call of the agent. The session replays with its places.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentSpawned } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { message, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { lazySchema } from "../core/tools/schema.ts";
import type { ToolCallContext } from "../core/tools/tool.ts";

/** The child's calls, one a round: each answered, then a last text. */
const CALLS = [
  toolUse("c1", "write_file", { path: "made.txt", content: "in the folder\n" }),
  toolUse("c2", "read_file", { path: "../secret.txt" }),
  toolUse("c3", "bash", { command: "pwd" }),
  toolUse("c4", "glob", { pattern: "*.txt" }),
];

/** The lead hands the work to a worker placed in `pkg`; the worker makes its calls. */
const script: FakeScriptFn = (request) => {
  const done = toolResultCount(request.body);
  if (!firstUserText(request.body?.messages ?? []).startsWith("work")) {
    return done === 0 ? message([toolUse("toolu_spawn", "work_in_pkg", {})]) : message("lead done");
  }
  const call = CALLS[done];
  return call === undefined ? message("done") : message([call]);
};

/**
 * A composite tool that starts a worker in the folder `pkg`, as a worktree mechanism will start
 * one in its worktree: its `agent.spawned` names the folder, and replay drives it again.
 */
const placing: Mechanism = {
  name: "placing",
  tools: () => [{
    name: "work_in_pkg",
    description: "Starts a worker in pkg",
    schema: lazySchema((z) => z.strictObject({})),
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    kind: "composite",
    readOnly: false,
    summarize: () => "pkg",
    run: async (_input: unknown, context: ToolCallContext) => {
      const child = context.sibling?.("worker");
      if (child === undefined) return { content: "no loop", isError: true };
      if (child.conversation.spawn == null) {
        await child.record([{ type: "agent.spawned", data: spawned("pkg") }]);
      }
      const result = child.hasUnfinishedWork
        ? await child.resume("continue", undefined, { signal: context.signal, maxTurns: 8 })
        : await child.prompt("work in pkg", { signal: context.signal, maxTurns: 8 });
      return { content: `worker: ${result?.reason ?? "finished"}`, isError: false };
    },
  }],
};

function spawned(cwd: string): AgentSpawned {
  return {
    parent: "lead",
    callId: "toolu_spawn",
    type: "general-purpose",
    description: "work in a folder",
    model: "claude-test",
    maxTokens: 1024,
    maxTurns: 8,
    cwd,
  };
}

/** The tool results of an agent, by call id. */
function results(events: readonly { type: string; agent: string; data: unknown }[], agent: string) {
  return Object.fromEntries(
    events.flatMap((event) => {
      if (event.type !== "tool.completed" || event.agent !== agent) return [];
      const data = event.data as { callId: string; content: string; isError: boolean };
      return [[data.callId, { content: data.content, isError: data.isError }]];
    }),
  );
}

Deno.test("a subagent placed in a folder writes, reads, runs and searches there, and replays", async () => {
  await using rig = await startTestSession(script, {
    workspaceFiles: { "secret.txt": "top secret\n", "pkg/keep.txt": "kept\n" },
    recordSettings: { flags: { permissionMode: "bypassPermissions" } },
    mechanisms: [placing],
  });
  const result = await rig.session.prompt("go", {
    signal: new AbortController().signal,
    maxTurns: 8,
  });
  assert.equal(result.reason, "completed", JSON.stringify(result));
  const events = rig.events();
  const got = results(events, "worker");
  assert.equal(await Deno.readTextFile(join(rig.workspace, "pkg/made.txt")), "in the folder\n");
  await assert.rejects(Deno.stat(join(rig.workspace, "made.txt")));
  assert.equal(got.c2?.isError, true);
  assert.doesNotMatch(got.c2?.content ?? "", /top secret/);
  assert.equal(got.c3?.content.trim(), join(rig.workspace, "pkg"));
  assert.deepEqual(got.c4?.content.split("\n").sort(), ["keep.txt", "made.txt"]);
  const replayed = await replaySession(events, { mechanisms: [placing] });
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, events.length);
});

Deno.test("an agent whose folder is a symbolic link out of the workspace runs no call", async () => {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-outside-" }));
  try {
    await using rig = await startTestSession(script, {
      recordSettings: { flags: { permissionMode: "bypassPermissions" } },
      mechanisms: [placing],
    });
    await Deno.symlink(outside, join(rig.workspace, "pkg"));
    await rig.session.prompt("go", { signal: new AbortController().signal, maxTurns: 8 });
    const got = results(rig.events(), "worker");
    for (const id of ["c1", "c2", "c3", "c4"]) {
      assert.equal(got[id]?.isError, true, id);
      assert.match(got[id]?.content ?? "", /leads out of the workspace/, id);
    }
    assert.deepEqual([...Deno.readDirSync(outside)], []);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});
