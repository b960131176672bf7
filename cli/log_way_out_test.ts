import assert from "node:assert/strict";
import { LogCorruptionError, LogVersionError } from "../events/errors.ts";
import { logWayOut } from "./log_way_out.ts";

Deno.test("a damaged log's error leads to log check, log salvage and --log", () => {
  const text = logWayOut(new LogCorruptionError("/w/.rein/events.jsonl", 7, "empty line"));
  assert.match(text ?? "", /rein log check "\/w\/\.rein\/events\.jsonl"/);
  assert.match(
    text ?? "",
    /rein log salvage "\/w\/\.rein\/events\.jsonl" +keep the 6 event\(s\) before line 7/,
  );
  assert.match(text ?? "", /--log PATH/);
});

Deno.test("the way out is found through an error's cause; a newer log says upgrade; others get none", () => {
  const wrapped = new Error("store stopped", {
    cause: new LogCorruptionError("/l.jsonl", 2, "bad"),
  });
  assert.match(logWayOut(wrapped) ?? "", /rein log salvage "\/l\.jsonl"/);
  assert.match(logWayOut(new LogVersionError("/l.jsonl", 3, 9, 2)) ?? "", /^Upgrade rein/);
  assert.equal(logWayOut(new Error("No API key")), undefined);
  assert.equal(logWayOut("a string"), undefined);
});
