import assert from "node:assert/strict";
import { join } from "node:path";
import { reinProjections } from "../core/harness.ts";
import { foldEvents } from "../core/state/state.ts";
import { runCli, tempWorkspace } from "./_cli.ts";

Deno.test("rein state folds every mechanism's slice a session folds (reinProjections), not a hand-picked few", async () => {
  await using ws = await tempWorkspace();
  const log = join(ws.path, "events.jsonl");
  await Deno.copyFile(new URL("./golden/crash_resume.jsonl", import.meta.url), log);
  const lines = (await Deno.readTextFile(log)).trim().split("\n").map((l) => JSON.parse(l));
  const projections = reinProjections();
  const folded = foldEvents(lines, projections);
  // The environment mechanism's slice (each session's date) is one `rein state` did not fold.
  const dates = folded.extensions["dates"] as Record<string, string>;
  assert.ok(Object.keys(dates).length > 0, "the log holds what the dates slice folds");
  const result = await runCli(["state", log, "--json"], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(result.code, 0, result.stderr);
  const state = JSON.parse(result.stdout);
  assert.deepEqual(
    Object.keys(state.extensions).sort(),
    projections.map((p) => p.key).sort(),
  );
  assert.deepEqual(state.extensions["dates"], dates);
  assert.deepEqual(state.extensions, JSON.parse(JSON.stringify(folded.extensions)));
});
