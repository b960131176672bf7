import assert from "node:assert/strict";
import type { EnvelopeOf, ReinEvent } from "../../events/event_types.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { sendMessageTool } from "../mail/send_message_tool.ts";
import { addToolFacts } from "../tools/tool_names.ts";
import { foldAs, protocolState } from "./_protocol_fixture.ts";
import { protocolsMechanism } from "./protocols_mechanism.ts";
import { PLAN_GATE_REASON, planGate } from "./plan_gate.ts";
import { sessionProtocols } from "./protocols_of.ts";

// As a harness makes its mechanisms' tools known.
addToolFacts([sendMessageTool, ...protocolsMechanism().toolFacts ?? []]);

const call = (name: string, input: unknown = {}) => ({ id: `toolu_${name}`, name, input });

Deno.test("the plan gate refuses a plan-mode teammate's writes and commands, and lets it read", async () => {
  const state = protocolState("plan");
  const context = testStageContext(state, { agent: "alice" });
  for (const name of ["write_file", "edit_file", "bash", "some_mcp_tool"]) {
    assert.deepEqual(await planGate(context, call(name)), {
      run: false,
      outcome: "denied",
      reason: PLAN_GATE_REASON,
    }, name);
  }
  for (const name of ["read_file", "grep", "glob", "send_message", "respond_shutdown"]) {
    assert.deepEqual(await planGate(context, call(name)), { run: true }, name);
  }
});

Deno.test("the plan gate lets every call of the lead, of a teammate not in plan mode, and of an approved one through", async () => {
  assert.deepEqual(await planGate(testStageContext(protocolState("plan")), call("bash")), {
    run: true,
  });
  const plain = testStageContext(protocolState(undefined), { agent: "alice" });
  assert.deepEqual(await planGate(plain, call("write_file")), { run: true });
  const approved = protocolState("plan", [
    ["alice", {
      type: "protocol.requested",
      data: { id: "p1", kind: "plan_approval", from: "alice", to: "lead", plan: "x" },
    }],
    ["lead", { type: "protocol.answered", data: { id: "p1", approve: true, by: "lead" } }],
  ]);
  assert.deepEqual(
    await planGate(testStageContext(approved, { agent: "alice" }), call("write_file")),
    { run: true },
  );
});

Deno.test("submit_plan's gate records the request and waits for the lead's answer before the call runs", async () => {
  const state = protocolState("plan");
  const recorded: ReinEvent[] = [];
  const waited: string[] = [];
  const context = testStageContext(state, {
    agent: "alice",
    record: (events) => {
      recorded.push(...events);
      foldAs(state, "alice", events);
      return Promise.resolve();
    },
    waitFor: (type, matches) => {
      const answer = {
        v: 2,
        seq: 99,
        ts: "2026-11-29T06:00:00.000Z",
        type: "protocol.answered",
        session: "s1",
        agent: "lead",
        data: { id: "toolu_submit_plan", approve: true, by: "lead" },
      } as EnvelopeOf<"protocol.answered">;
      assert.equal(type, "protocol.answered");
      assert.equal(matches(answer as never), true);
      assert.equal(matches({ ...answer, data: { ...answer.data, id: "other" } } as never), false);
      waited.push(answer.data.id);
      return Promise.resolve(answer as never);
    },
  });
  const decision = await planGate(context, call("submit_plan", { plan: "1. do it" }));
  assert.deepEqual(decision, { run: true });
  assert.deepEqual(recorded.map((event) => event.type), ["protocol.requested", "mail.sent"]);
  assert.deepEqual(waited, ["toolu_submit_plan"]);
  assert.equal(sessionProtocols(state, "s1").byId["toolu_submit_plan"]?.plan, "1. do it");
});

Deno.test("submit_plan's gate, run again for an answered call (after a crash), neither asks nor waits", async () => {
  const state = protocolState("plan", [
    ["alice", {
      type: "protocol.requested",
      data: {
        id: "toolu_submit_plan",
        kind: "plan_approval",
        from: "alice",
        to: "lead",
        plan: "x",
      },
    }],
    ["lead", {
      type: "protocol.answered",
      data: { id: "toolu_submit_plan", approve: false, by: "lead", reason: "no" },
    }],
  ]);
  const context = testStageContext(state, {
    agent: "alice",
    record: () => Promise.reject(new Error("nothing to record")),
  });
  assert.deepEqual(await planGate(context, call("submit_plan", { plan: "x" })), { run: true });
});
