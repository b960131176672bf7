import assert from "node:assert/strict";
import { reinMechanisms } from "../core/harness.ts";
import { orderStages } from "../core/loop/stage_order.ts";
import type { Mechanism } from "../core/mechanism.ts";

const workspace = "/nonexistent/workspace";

/** Where each named mechanism's stages run among the ordered stages. */
function positions(mechanisms: readonly Mechanism[], names: readonly string[]): number[] {
  const ordered = orderStages(mechanisms);
  return names.map((name) => {
    const stages = mechanisms.find((m) => m.name === name)?.stages;
    assert.ok(stages, `no stages of ${name}`);
    return ordered.indexOf(stages);
  });
}

Deno.test("rein's stages run cron before hooks before the permission rules, whatever the order of registration", () => {
  const mechanisms = reinMechanisms({ workspace });
  for (const order of [mechanisms, [...mechanisms].reverse()]) {
    const [cron, hooks, permissions] = positions(order, ["cron", "hooks", "permissions"]);
    assert.ok(cron !== undefined && hooks !== undefined && permissions !== undefined);
    assert.ok(cron < hooks && hooks < permissions, `${cron} < ${hooks} < ${permissions}`);
  }
});

Deno.test("rein's stages run in the order its mechanisms are registered in", () => {
  const mechanisms = reinMechanisms({ workspace });
  assert.deepEqual(orderStages(mechanisms), mechanisms.flatMap((m) => m.stages ?? []));
});
