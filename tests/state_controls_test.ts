import assert from "node:assert/strict";
import { join } from "node:path";
import { eventFactory, startedData } from "../testing/event_factory.ts";
import { stateCommand } from "../cli/state_command.ts";
import { tempWorkspace } from "./_cli.ts";

Deno.test("rein state prints what agents wrote (a task's subject) without its terminal control sequences", async () => {
  await using ws = await tempWorkspace();
  const log = join(ws.path, "events.jsonl");
  const event = eventFactory("s1", "lead");
  const subject = "Fix it\x1b]0;pwned\x07\x1b[2J\x1b[31m now";
  const lines = [
    event("session.started", startedData()),
    event("task.created", { id: 1, subject, description: "", blockedBy: [] }),
  ].map((envelope) => JSON.stringify(envelope)).join("\n");
  await Deno.writeTextFile(log, `${lines}\n`);
  let out = "";
  const sink = { write: (chunk: string) => void (out += chunk) };
  const io = {
    stdout: sink,
    stderr: sink,
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
  };
  assert.equal(await stateCommand(log, { json: false }, io), 0);
  assert.match(out, /Fix it now/);
  assert.ok(!out.includes("\x1b") && !out.includes("\x07"), out);
  // The JSON form keeps the text as recorded (escaped by JSON itself).
  out = "";
  assert.equal(await stateCommand(log, { json: true }, io), 0);
  assert.ok(out.includes("\\u001b]0;pwned"), out.slice(0, 400));
});
