import assert from "node:assert/strict";
import { eventFactory, startedData } from "../../testing/event_factory.ts";
import { foldEvents } from "../state/state.ts";
import { pathRuleReminders } from "./memory_mechanism.ts";
import { memoryProjection } from "./memory_projection.ts";
import { memoryReport } from "./memory_report.ts";
import { pathRulesOf, ruleGlobs, ruleMatches } from "./path_rules.ts";

Deno.test("a rule's paths: a list, one glob, or several separated by commas (braces kept); none without", () => {
  assert.deepEqual(ruleGlobs('---\npaths:\n  - "src/**/*.ts"\n  - lib/*.js\n---\nx'), [
    "src/**/*.ts",
    "lib/*.js",
  ]);
  assert.deepEqual(ruleGlobs("---\npaths: src/**/*.{ts,tsx}, docs/*.md\n---\nx"), [
    "src/**/*.{ts,tsx}",
    "docs/*.md",
  ]);
  assert.deepEqual(ruleGlobs("---\npaths: []\n---\nx"), undefined);
  assert.deepEqual(ruleGlobs("---\ndescription: d\n---\nx"), undefined);
  assert.deepEqual(ruleGlobs("just text"), undefined);
});

Deno.test("a rule's globs name files relative to the workspace; nothing outside it", () => {
  const isMatch = (glob: string, path: string) =>
    glob === "src/**/*.ts" ? /^src\/.*\.ts$/.test(path) : false;
  assert.ok(ruleMatches(["src/**/*.ts"], "/w", "/w/src/a/b.ts", isMatch));
  assert.ok(ruleMatches(["./src/**/*.ts"], "/w", "src/x.ts", isMatch));
  assert.ok(!ruleMatches(["src/**/*.ts"], "/w", "/w/lib/x.ts", isMatch));
  assert.ok(!ruleMatches(["src/**/*.ts"], "/w", "/elsewhere/src/x.ts", isMatch));
});

Deno.test("reading a file a path rule names brings it in once per session, from the log", async () => {
  const e = eventFactory();
  const files = [
    {
      source: "memory.rule",
      path: "/w/.claude/rules/ts.md",
      text: '---\npaths: ["src/**"]\n---\nNo any.\n',
    },
    { source: "memory", path: "/w/CLAUDE.md", text: "Be brief.\n" },
  ];
  assert.equal(pathRulesOf(files).length, 1);
  const start = [e("session.started", startedData({ workspace: "/w", files }))];
  const state = foldEvents(start, [memoryProjection]);
  assert.match(
    memoryReport(state, "s1"),
    /Rules for some files \(they join when such a file is read\): 1\n {2}\.claude\/rules\/ts\.md {2}\(src\/\*\*\)/,
  );
  const read = (path: string) => ({ id: "t", name: "read_file", input: { path } });
  assert.deepEqual(await pathRuleReminders(state, "s1", "lead", read("README.md")), []);
  const [reminder, ...rest] = await pathRuleReminders(state, "s1", "lead", read("src/a.ts"));
  assert.deepEqual(rest, []);
  assert.equal(reminder?.type, "reminder.added");
  assert.equal(reminder?.data.source, "memory.rule:/w/.claude/rules/ts.md");
  assert.match(
    reminder?.data.text ?? "",
    /^Reading src\/a\.ts brought in the rule \.claude\/rules\/ts\.md/,
  );
  assert.match(reminder?.data.text ?? "", /No any\.$/);
  const after = foldEvents([...start, e("reminder.added", reminder!.data)], [memoryProjection]);
  assert.deepEqual(await pathRuleReminders(after, "s1", "lead", read("src/b.ts")), []);
  assert.deepEqual(
    await pathRuleReminders(state, "s1", "lead", {
      id: "t",
      name: "bash",
      input: { command: "cat src/a.ts" },
    }),
    [],
  );
});
