import assert from "node:assert/strict";
import { chooseTeammateName } from "./teammate_name.ts";

Deno.test("chooseTeammateName: a free valid name is kept", () => {
  assert.deepEqual(chooseTeammateName("alice", new Set(["main"])), { name: "alice" });
  assert.deepEqual(chooseTeammateName("a_b-9", new Set()), { name: "a_b-9" });
});

Deno.test("chooseTeammateName: a taken name gets -2, then -3", () => {
  assert.deepEqual(chooseTeammateName("alice", new Set(["alice"])), { name: "alice-2" });
  assert.deepEqual(chooseTeammateName("alice", new Set(["alice", "alice-2"])), { name: "alice-3" });
});

Deno.test("chooseTeammateName: the suffix keeps the name within 64 characters", () => {
  const long = "a".repeat(64);
  const chosen = chooseTeammateName(long, new Set([long]));
  assert.deepEqual(chosen, { name: `${"a".repeat(62)}-2` });
});

Deno.test("chooseTeammateName: names that break Claude Code's rule are refused", () => {
  for (const bad of ["", "-alice", "_a", "al ice", "a/b", "a".repeat(65), "ålice"]) {
    const chosen = chooseTeammateName(bad, new Set());
    assert.deepEqual("error" in chosen, true, bad);
  }
});

Deno.test("chooseTeammateName: the lead's names are refused in any case", () => {
  for (const lead of ["main", "lead", "team-lead", "Lead", "TEAM-LEAD"]) {
    const chosen = chooseTeammateName(lead, new Set());
    assert.deepEqual(chosen, { error: `Invalid teammate name "${lead}": it names the lead` });
  }
});
