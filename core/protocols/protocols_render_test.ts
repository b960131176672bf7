import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { plainText } from "../state/rendered_line.ts";
import { protocolState } from "./_protocol_fixture.ts";
import { renderProtocolEvent, reportProtocols } from "./protocols_render.ts";

const envelope = (event: Pick<Envelope, "type" | "data">, agent = "lead") =>
  ({ v: 2, seq: 9, ts: "2026-11-29T06:00:00.000Z", session: "s1", agent, ...event }) as Envelope;

Deno.test("protocol events render as one line each; another mechanism's event is not theirs", () => {
  const lines = (event: Envelope) => renderProtocolEvent(event)?.map(plainText);
  assert.deepEqual(
    lines(envelope({
      type: "protocol.requested",
      data: { id: "r1", kind: "plan_approval", from: "alice", to: "lead", plan: "x" },
    })),
    ["⇄ alice asks lead: plan approval"],
  );
  assert.deepEqual(
    lines(envelope({
      type: "protocol.answered",
      data: { id: "r1", approve: false, by: "lead", reason: "add tests\nand docs" },
    })),
    ["⇄ lead rejected r1: add tests"],
  );
  assert.deepEqual(
    lines(envelope({
      type: "protocol.expired",
      data: { id: "r2", timeoutMs: 30000, at: "2026-11-29T06:00:30.000Z", forced: true },
    })),
    ["⇄ r2 unanswered after 30000 ms: stopped"],
  );
  assert.equal(renderProtocolEvent(envelope({ type: "mail.read", data: { ids: [] } })), undefined);
});

Deno.test("rein state's protocols section lists the pending requests, and is absent without any", () => {
  const at = { session: "s1", at: "2026-11-29T06:00:00.000Z" };
  assert.deepEqual(reportProtocols(protocolState(undefined), at), []);
  const state = protocolState(undefined, [
    ["lead", {
      type: "protocol.requested",
      data: { id: "r1", kind: "shutdown", from: "lead", to: "alice" },
    }],
  ]);
  assert.deepEqual(
    reportProtocols(state, at).map((section) => [section.title, section.lines.map(plainText)]),
    [["protocols", ["r1: lead asks alice: shutdown"]]],
  );
});
