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

Deno.test("a secret typed into a prompt is not kept in the history", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const secret = "sk-ant-api03-HISTORY-SECRET-0123456789";
    const history = new PromptHistory(
      `${dir}/events.jsonl`,
      (text) => text.replaceAll(secret, "[REDACTED]"),
    );
    history.save([`use ${secret} please`]);
    assert.deepEqual(history.load(), ["use [REDACTED] please"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
