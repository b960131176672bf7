import assert from "node:assert/strict";
import { planRestart } from "./restart_budget.ts";

const now = new Date("2026-01-01T01:00:00Z");
const ago = (minutes: number) => ({ at: new Date(now.getTime() - minutes * 60_000).toISOString() });

Deno.test("planRestart: the first three exits in ten minutes are restarted", () => {
  assert.equal(planRestart([ago(0)], now), "restart");
  assert.equal(planRestart([ago(2), ago(1), ago(0)], now), "restart");
});

Deno.test("planRestart: the fourth exit in ten minutes is crashed", () => {
  assert.equal(planRestart([ago(9), ago(2), ago(1), ago(0)], now), "crashed");
});

Deno.test("planRestart: exits older than ten minutes do not count", () => {
  assert.equal(planRestart([ago(30), ago(11), ago(10), ago(2), ago(1), ago(0)], now), "restart");
});
