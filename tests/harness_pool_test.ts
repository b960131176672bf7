/**
 * The harness makes an agent's tool pool and system prompt sections again only once the state
 * has changed: asked again with nothing folded in between, the same objects; after an event that
 * changes what a mechanism offers, the new pool and sections; after one that changes nothing
 * they offer, the same objects again (what is built from them by object is found again).
 */
import assert from "node:assert/strict";
import type { Mechanism } from "../core/mechanism.ts";
import { echo } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";
import { tallyAddTool, tallyEverywhere as tallyMechanism, tallyOf } from "../testing/tally/mod.ts";

/** Offers tally_add only once the tally has reached 3 (a pool that depends on the state). */
const gated: Mechanism = {
  ...tallyMechanism,
  tools: (scope) => tallyOf(scope.state, scope.session) >= 3 ? [tallyAddTool] : [],
};

Deno.test("an agent's pool and sections are made again once the state changes, and only then", async () => {
  await using t = await startTestSession(echo(), { mechanisms: [gated] });
  const { deps, state } = t.harness;
  const scope = () => ({ state, session: t.session.id, agent: t.session.agent });
  const names = () => deps.pool(scope()).tools.map((tool) => tool.name);

  const pool = deps.pool(scope());
  const sections = deps.sections(scope());
  assert.equal(deps.pool(scope()), pool, "asked again, nothing folded: the same pool");
  assert.equal(deps.sections(scope()), sections);
  assert.ok(!names().includes("tally_add"));
  assert.ok(!sections.some((section) => section.id === "tally"));

  await t.session.record([{ type: "tally.added", data: { by: 1, total: 1 } }]);
  // The state changed, what the mechanisms offer did not: the same pool, and new sections.
  assert.equal(deps.pool(scope()), pool);
  const tallied = deps.sections(scope());
  assert.notEqual(tallied, sections);
  assert.ok(tallied.some((section) => section.text === "Tally so far: 1"));
  assert.equal(deps.sections(scope()), tallied);

  await t.session.record([{ type: "tally.added", data: { by: 2, total: 3 } }]);
  const grown = deps.pool(scope());
  assert.notEqual(grown, pool);
  assert.ok(names().includes("tally_add"));
  assert.equal(grown.byName.get("tally_add"), tallyAddTool);
  assert.ok(deps.sections(scope()).some((section) => section.text === "Tally so far: 3"));
  assert.equal(deps.pool(scope()), grown);
});
