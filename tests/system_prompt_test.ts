/**
 * The whole system prompt of a new session with every mechanism's part: settings (the sandbox),
 * project instructions, the memory index and the skill catalog. A snapshot, so that any change
 * to what the model reads first is a visible diff in review (`UPDATE_SNAPSHOTS=1` rewrites it).
 */
import assert from "node:assert/strict";
import { createHarness } from "../core/harness.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { MemoryEventStore } from "../events/memory_store.ts";

const WORKSPACE = "/home/user/project";

Deno.test("a new session's whole system prompt matches its snapshot, sections in their order", async () => {
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      new MemoryEventStore({ clock: () => new Date(0), onEvent, eventTypes }),
    workspace: WORKSPACE,
    effects: {
      ...liveEffects({ baseURL: "http://127.0.0.1:9", apiKey: "sk-ant-unused-0123456789" }),
      clock: () => new Date("2026-11-22T10:00:00.000Z"),
    },
  });
  try {
    const { system } = harness.previewRequest({
      id: "preview",
      model: "claude-sonnet-5",
      workspace: WORKSPACE,
      maxTokens: 32_000,
      platform: "linux x86_64",
      settings: {
        sources: [],
        flags: {},
        home: "/home/user",
        interactive: true,
        sandbox: "Commands run in a sandbox (the description bwrap's config gives).",
        cronTools: true,
      },
      files: [
        {
          source: "memory",
          path: "/home/user/.claude/CLAUDE.md",
          text: "Answer in British English.\n",
        },
        {
          source: "memory",
          path: `${WORKSPACE}/CLAUDE.md`,
          text: "# Project\n\nRun `deno task test` before you finish.\n",
        },
        {
          source: "memory.index",
          path: `${WORKSPACE}/.rein/memory/MEMORY.md`,
          text: "- tests need a running postgres\n",
        },
        {
          source: "skills",
          path: `${WORKSPACE}/.claude/skills/release-notes/SKILL.md`,
          text: "---\nname: release-notes\ndescription: Drafts release notes from the commits " +
            "since the last tag\n---\nList the commits and write $ARGUMENTS.\n",
        },
      ],
    });
    const actual = `${system.map((block) => block.text).join("\n\n----- next block -----\n\n")}\n`;
    const file = new URL("./testdata/system_prompt.txt", import.meta.url);
    if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") await Deno.writeTextFile(file, actual);
    assert.equal(
      actual,
      await Deno.readTextFile(file),
      "The system prompt changed: review, then rerun with UPDATE_SNAPSHOTS=1",
    );
    const order = ["You are rein", "Environment:", "# Sandbox", "Answer in British", "postgres"];
    const at = order.map((text) => actual.indexOf(text));
    assert.deepEqual([...at].sort((a, b) => a - b), at, "sections in the documented order");
    assert.ok(actual.indexOf("release-notes") > actual.indexOf("postgres"), "skills after memory");
  } finally {
    await harness.close();
  }
});
