import assert from "node:assert/strict";
import { initialState } from "../state/state.ts";
import { pendingArrivals } from "./arrivals.ts";

Deno.test("arrivals of every source come in log order", () => {
  const scope = { state: initialState(), session: "s1", agent: "lead" };
  const arrival = (source: string, key: string, seq: number) => ({ source, key, seq, text: "" });
  const sorted = pendingArrivals(scope, [
    () => [arrival("jobs", "b", 9), arrival("jobs", "a", 4)],
    () => [arrival("cron", "x", 9), arrival("bell", "7", 7)],
  ]);
  assert.deepEqual(sorted.map((a) => `${a.source}/${a.key}`), [
    "jobs/a",
    "bell/7",
    "cron/x",
    "jobs/b",
  ]);
});
