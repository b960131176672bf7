import assert from "node:assert/strict";
import { PromptHistory } from "./history.ts";

Deno.test("prompt history is kept beside the log, newest first, one line per prompt", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const history = new PromptHistory(`${dir}/events.jsonl`);
    assert.deepEqual(history.load(), [], "no file yet: no history");
    history.save(["second\nline", "first"]);
    assert.deepEqual(new PromptHistory(`${dir}/events.jsonl`).load(), ["second line", "first"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a history that cannot be written does not stop the REPL", () => {
  const history = new PromptHistory("/nonexistent-dir/for/sure/events.jsonl");
  history.save(["x"]);
  assert.deepEqual(history.load(), []);
});
