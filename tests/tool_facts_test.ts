/**
 * rein's tools' facts (Claude Code names, path and command fields, permission class), which
 * permission rules, hooks and agent definitions read where no pool is at hand
 * (core/tools/rein_tool_facts.json, `knownToolNames`), are those the tools themselves declare:
 * derived here from the pool of a session with every mechanism active.
 */
import assert from "node:assert/strict";
import { reinFeatures } from "../core/harness.ts";
import { compactTool } from "../core/compaction/compact_tool.ts";
import { loadSkillTool } from "../core/skills/load_skill_tool.ts";
import { toolFacts } from "../core/tools/tool_names.ts";
import type { AnyTool, ToolFacts } from "../core/tools/tool.ts";
import { echo } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";

const snapshotUrl = new URL("../core/tools/rein_tool_facts.json", import.meta.url);

/** The facts of every tool a session's lead may get, in pool order. */
async function derivedFacts(): Promise<ToolFacts[]> {
  await using t = await startTestSession(echo(), {
    recordSettings: {
      env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" },
      jobs: { timeoutMs: 60_000, outputMaxBytes: 100_000 },
      features: reinFeatures(),
    },
  });
  const { deps, state } = t.harness;
  const pool = deps.pool({ state, session: t.session.id, agent: t.session.agent }).tools;
  const tools: AnyTool[] = [...pool];
  // Offered only when the session has skills or compaction configured.
  for (const tool of [loadSkillTool, compactTool]) {
    if (!tools.some((known) => known.name === tool.name)) tools.push(tool);
  }
  return tools.map((tool) => ({ name: tool.name, ...toolFacts(tool) }));
}

Deno.test("rein_tool_facts.json holds the facts rein's tools declare", async () => {
  const actual = `${JSON.stringify(await derivedFacts(), null, 2)}\n`;
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(snapshotUrl, actual);
    return;
  }
  const expected = await Deno.readTextFile(snapshotUrl);
  assert.equal(
    actual,
    expected,
    "A tool's facts changed: if intended, run UPDATE_SNAPSHOTS=1 deno test -A " +
      "tests/tool_facts_test.ts and review the diff",
  );
});
