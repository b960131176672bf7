import assert from "node:assert/strict";
import type { AgentView } from "../state/sessions.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { planSpawn } from "./plan_spawn.ts";

const definition = {
  name: "general-purpose",
  description: "d",
  systemPrompt: "",
} as AgentDefinition;
const parent = (cwd?: string) =>
  ({
    name: "lead",
    model: "claude-sonnet-5",
    maxTokens: 1024,
    spawn: cwd === undefined ? null : { cwd },
  }) as unknown as AgentView;
const place = (given: string | undefined, from?: string) =>
  planSpawn(definition, parent(from), { callId: "c", description: "x", cwd: given }).cwd;

Deno.test("a child's folder is joined to its parent's, relative to the workspace", () => {
  assert.equal(place(undefined), undefined);
  assert.equal(place("."), undefined);
  assert.equal(place("packages/api/"), "packages/api");
  assert.equal(place("./api", "packages"), "packages/api");
  assert.equal(place(undefined, "packages"), "packages");
  assert.equal(place("a/../b"), "b");
  assert.equal(place("a/..", "packages"), "packages");
});

Deno.test("a child's folder may not be absolute, leave its parent's, or be in .git or .rein", () => {
  assert.throws(() => place("/etc"), /relative to your directory/);
  assert.throws(() => place(".."), /leads out of your directory/);
  assert.throws(() => place("a/../../x", "packages"), /leads out of your directory/);
  assert.throws(() => place(".git/hooks"), /inside \.git or \.rein/);
  assert.throws(() => place("x/.REIN"), /inside \.git or \.rein/);
});
