import assert from "node:assert/strict";
import { FOLD_FINGERPRINT } from "../core/state/fold_fingerprint.ts";
import { foldFiles, foldFingerprint } from "./fold_fingerprint.ts";

Deno.test("the fold fingerprint is the hash of the fold code as it is now", async () => {
  assert.equal(
    FOLD_FINGERPRINT,
    await foldFingerprint(),
    "The fold code changed since core/state/fold_fingerprint.ts was written: run " +
      "`deno task fingerprint` (snapshots of the old fold code are then ignored)",
  );
});

Deno.test("the fold fingerprint covers the folds, the projections and the event types", async () => {
  const files = await foldFiles();
  for (
    const file of [
      "core/state/sessions.ts",
      "core/state/conversation.ts",
      "core/todos/todos_projection.ts",
      "events/event_types.ts",
      "events/upcast.ts",
    ]
  ) {
    assert.ok(files.includes(file), `${file} is not in the fingerprint`);
  }
  assert.ok(!files.some((file) => file.endsWith("_test.ts")));
});
