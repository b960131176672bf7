import assert from "node:assert/strict";
import { initialState } from "../state/state.ts";
import { createBaseTools } from "./base_tools.ts";
import { toolPool } from "./tool_pool.ts";

const base = createBaseTools({ workspace: "/w" });
const scope = (agent: string) => ({ state: initialState(), session: "s1", agent });

Deno.test("a pool takes its sources in order, the first tool of a name winning", () => {
  const shadow = { ...base[0]!, description: "another bash" };
  const pool = toolPool(scope("lead"), [() => base, () => [shadow]]);
  assert.deepEqual(pool.tools.map((t) => t.name), [
    "bash",
    "read_file",
    "write_file",
    "edit_file",
    "glob",
    "grep",
  ]);
  assert.equal(pool.byName.get("bash"), base[0]);
  assert.equal(pool.definitions[0]?.name, "bash");
});

Deno.test("filters narrow an agent's pool, and only that agent's", () => {
  const readOnlyHelpers = (s: { agent: string }, tools: readonly (typeof base)[number][]) =>
    s.agent === "helper" ? tools.filter((t) => t.readOnly) : tools;
  const helper = toolPool(scope("helper"), [() => base], [readOnlyHelpers]);
  assert.deepEqual(helper.tools.map((t) => t.name), ["read_file", "glob", "grep"]);
  assert.equal(helper.byName.has("bash"), false);
  assert.deepEqual(helper.definitions.map((d) => d.name), ["read_file", "glob", "grep"]);
  const lead = toolPool(scope("lead"), [() => base], [readOnlyHelpers]);
  assert.equal(lead.tools.length, 6);
});

Deno.test("definitions are computed once per tool and reused by every pool", () => {
  const first = toolPool(scope("lead"), [() => base]);
  const second = toolPool(scope("helper"), [() => base]);
  assert.equal(first.definitions[2], second.definitions[2]);
});

Deno.test("a pool with the tools of the one before is that pool; any change makes a new one", () => {
  let extra: typeof base = [];
  const sources = [() => base, () => extra];
  const first = toolPool(scope("lead"), sources);
  assert.equal(toolPool(scope("lead"), sources, [], first), first);
  extra = [{ ...base[0]!, name: "bash_two" }];
  const grown = toolPool(scope("lead"), sources, [], first);
  assert.notEqual(grown, first);
  assert.deepEqual(grown.tools.map((t) => t.name).at(-1), "bash_two");
  assert.equal(grown.byName.get("bash_two"), extra[0]);
  const reordered = toolPool(scope("lead"), [() => [...base].reverse()], [], first);
  assert.notEqual(reordered, first);
  assert.equal(reordered.definitions[0]?.name, "grep");
});

Deno.test("a large pool keeps the first tool of each name too", () => {
  const many = Array.from({ length: 80 }, (_, i) => ({ ...base[0]!, name: `tool_${i % 50}` }));
  const pool = toolPool(scope("lead"), [() => many, () => base]);
  assert.equal(pool.tools.length, 50 + base.length);
  assert.equal(pool.byName.get("tool_7"), many[7]);
  assert.deepEqual(pool.tools.slice(-base.length), base);
});
