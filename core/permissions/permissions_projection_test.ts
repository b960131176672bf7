import assert from "node:assert/strict";
import type { Envelope, SettingsSnapshot } from "../../events/event_types.ts";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { permissionsProjection, type PermissionsSlice } from "./permissions_projection.ts";

function settings(machine?: string | null, permissionMode?: string): SettingsSnapshot {
  return {
    sources: [],
    flags: permissionMode === undefined ? {} : { permissionMode },
    home: "/home/a",
    interactive: false,
    ...(machine === undefined ? {} : { machine }),
  };
}

function fold(events: readonly Envelope[]): PermissionsSlice {
  let slice = permissionsProjection.initial();
  for (const event of events) slice = permissionsProjection.evolve(slice, event);
  return slice;
}

/** A session started on `machine`, switched to bypassPermissions, with "Bash" allowed always. */
function granted(machine: string | null | undefined) {
  const event = eventFactory();
  return {
    event,
    events: [
      event("session.started", startedData({ settings: settings(machine) })),
      event("permission.mode_changed", { mode: "bypassPermissions" }),
      event("permission.decided", {
        callId: "c1",
        tool: "bash",
        decision: "allow",
        source: { kind: "user", answer: "always", rule: "Bash" },
        reason: "allowed",
      }),
    ],
  };
}

const resumed = (machine?: string | null, permissionMode?: string) => ({
  how: "continue" as const,
  withPrompt: true,
  maxTurns: null,
  settings: settings(machine, permissionMode),
});

Deno.test("a resume on the machine that recorded the session starts from its settings' mode and keeps the session's always rules", () => {
  const { event, events } = granted("m1");
  const slice = fold([...events, event("session.resumed", resumed("m1"))]);
  assert.equal(slice.s1?.mode, undefined);
  assert.deepEqual(slice.s1?.alwaysRules, ["Bash"]);
  assert.equal(slice.s1?.machine, "m1");
});

Deno.test("a resume of a session recorded elsewhere, without machine ids or on a machine without a key drops its mode and its always rules", () => {
  for (const [recorded, resume] of [["m1", "m2"], [undefined, "m2"], [null, "m2"], ["m1", null]]) {
    const { event, events } = granted(recorded);
    const slice = fold([...events, event("session.resumed", resumed(resume))]);
    assert.equal(slice.s1?.mode, undefined, `${recorded} → ${resume}`);
    assert.deepEqual(slice.s1?.alwaysRules, [], `${recorded} → ${resume}`);
  }
  // A part recorded elsewhere in between: what was allowed before it does not come back.
  const { event, events } = granted("m1");
  const slice = fold([
    ...events,
    event("session.resumed", resumed("m2")),
    event("session.resumed", resumed("m1")),
  ]);
  assert.deepEqual(slice.s1?.alwaysRules, []);
});

Deno.test("resumes recorded before machine ids, and a subagent's resume, decide as they did", () => {
  const { event, events } = granted(undefined);
  const kept = fold([...events, event("session.resumed", resumed(undefined))]);
  assert.equal(kept.s1?.mode, "bypassPermissions");
  assert.deepEqual(kept.s1?.alwaysRules, ["Bash"]);
  const flagged = fold([...events, event("session.resumed", resumed(undefined, "plan"))]);
  assert.equal(flagged.s1?.mode, undefined);
  const child = granted("m1");
  const { settings: _settings, ...withoutSettings } = resumed("m1");
  const slice = fold([...child.events, child.event("session.resumed", withoutSettings)]);
  assert.equal(slice.s1?.mode, "bypassPermissions");
  assert.deepEqual(slice.s1?.alwaysRules, ["Bash"]);
});
