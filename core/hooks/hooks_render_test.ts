import assert from "node:assert/strict";
import type { Envelope, HookRan } from "../../events/event_types.ts";
import { plainText } from "../state/rendered_line.ts";
import { renderHookEvent } from "./hooks_render.ts";

function ran(data: Partial<HookRan>): Envelope {
  return {
    v: 1,
    seq: 1,
    ts: "2026-11-29T00:00:00.000Z",
    session: "s1",
    agent: "main",
    type: "hook.ran",
    data: {
      hookEvent: "Stop",
      matcher: "",
      command: "./h.sh",
      exitCode: 0,
      stdout: "",
      stderr: "",
      durationMs: 3,
      ending: "exited",
      decision: "no decision",
      ...data,
    },
  };
}

Deno.test("renderHookEvent: a quiet hook shows nothing; its systemMessage and continue:false are shown", () => {
  assert.deepEqual(renderHookEvent(ran({})), []);
  const said = renderHookEvent(ran({
    stdout: JSON.stringify({ systemMessage: "Tests are red", continue: false, stopReason: "Fix" }),
  }));
  assert.deepEqual(said?.map(plainText), [
    "Stop hook: Tests are red",
    "Stop hook stopped the agent: Fix",
  ]);
});
