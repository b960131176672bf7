import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { mailProjection, type MailSlice } from "./mail_projection.ts";

let seq = 0;
function event(agent: string, type: string, data: unknown, session = "s1"): Envelope {
  seq += 1;
  return { v: 2, seq, ts: "2026-11-29T00:00:00.000Z", type, session, agent, data } as Envelope;
}

function fold(events: readonly Envelope[]): MailSlice {
  return events.reduce((slice, e) => mailProjection.evolve(slice, e), mailProjection.initial());
}

function sent(from: string, id: string, recipients: string[], content = id) {
  return event(from, "mail.sent", {
    id,
    from,
    to: recipients.length > 1 ? "*" : recipients[0],
    recipients,
    content,
    kind: "message",
  });
}

Deno.test("a letter waits in each recipient's inbox until its arrival or a read takes it out", () => {
  seq = 0;
  const slice = fold([
    sent("lead", "m1", ["alice", "bob"]),
    sent("alice", "m2", ["lead"]),
    sent("bob", "m3", ["alice"]),
    // alice's next request took m1 and m3; bob read m1 with check_inbox.
    event("alice", "arrival.injected", { source: "mail", key: "m1,m3", seq: 1, text: "…" }),
    event("bob", "mail.read", { ids: ["m1"] }),
  ]);
  assert.deepEqual(slice.s1?.unread, {
    lead: [{ id: "m2", seq: 2, from: "alice", content: "m2", kind: "message" }],
  });
  assert.equal(slice.s1?.sent, 3);
  assert.equal(slice.s1?.delivered, 3);
});

Deno.test("another source's arrival, another agent's read and another session's mail leave an inbox alone", () => {
  seq = 0;
  const slice = fold([
    sent("lead", "m1", ["alice"]),
    event("alice", "arrival.injected", { source: "jobs", key: "m1", seq: 1, text: "…" }),
    event("bob", "mail.read", { ids: ["m1"] }),
    event("alice", "mail.read", { ids: ["m1"] }, "s2"),
  ]);
  assert.deepEqual(slice.s1?.unread.alice?.map((letter) => letter.id), ["m1"]);
  assert.equal(slice.s1?.delivered, 0);
  assert.equal(slice.s2, undefined);
});

Deno.test("a letter read once is not delivered again by a second read or arrival", () => {
  seq = 0;
  const slice = fold([
    sent("lead", "m1", ["alice"], "hello"),
    event("alice", "mail.read", { ids: ["m1"] }),
    event("alice", "arrival.injected", { source: "mail", key: "m1", seq: 1, text: "…" }),
  ]);
  assert.deepEqual(slice.s1?.unread, {});
  assert.equal(slice.s1?.delivered, 1);
});
