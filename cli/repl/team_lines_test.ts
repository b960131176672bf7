import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import {
  parseMention,
  parsePlanReview,
  teammateCallLine,
  teammateQuestionHeader,
} from "./team_lines.ts";

const summarize = (tool: string, input: unknown) =>
  tool === "bash" ? String((input as { command: string }).command) : JSON.stringify(input);

Deno.test("a teammate's call is one line: its name, the tool and the call's first line", () => {
  const event = {
    v: 2,
    seq: 9,
    ts: "2026-11-29T09:00:00.000Z",
    type: "tool.requested",
    session: "s1",
    agent: "alice",
    data: { callId: "toolu_1", name: "bash", input: { command: "npm test\necho done" } },
  } as Envelope;
  assert.equal(teammateCallLine(event, summarize), "alice · bash npm test");
  assert.equal(
    teammateCallLine({ ...event, type: "turn.started" } as Envelope, summarize),
    undefined,
  );
});

Deno.test("the person is asked about a teammate's command with its name", () => {
  assert.equal(
    teammateQuestionHeader(
      { agent: "alice", tool: "bash", input: { command: "npm install" } },
      summarize,
    ),
    "alice wants to run `npm install`",
  );
  assert.equal(
    teammateQuestionHeader({ agent: "bob", tool: "write_file", input: { path: "a" } }, summarize),
    'bob wants to use write_file {"path":"a"}',
  );
});

Deno.test("a plan is approved with y, rejected with n and feedback", () => {
  assert.deepEqual(parsePlanReview("y"), { approve: true });
  assert.deepEqual(parsePlanReview("yes, go ahead"), { approve: true, feedback: "go ahead" });
  assert.deepEqual(parsePlanReview("n add a test first"), {
    approve: false,
    feedback: "add a test first",
  });
  assert.equal(parsePlanReview("nope"), undefined);
  assert.equal(parsePlanReview("maybe"), undefined);
});

Deno.test("@name text is a mention; @name alone or @ and a path is not", () => {
  assert.deepEqual(parseMention("@alice run the tests"), { to: "alice", text: "run the tests" });
  assert.deepEqual(parseMention("@bob: stop"), { to: "bob", text: "stop" });
  assert.equal(parseMention("@alice"), undefined);
  assert.equal(parseMention("@src/a.ts explain"), undefined);
});
