import assert from "node:assert/strict";
import { checkMatcher, loadHookMatchers, matcherSelects } from "./hook_matcher.ts";

// What a regular-expression matcher needs, loaded as the hooks stages load it.
await loadHookMatchers(["Bash.*"]);

const cases: [matcher: string | undefined, value: string | string[], selects: boolean][] = [
  [undefined, "Bash", true],
  ["", "mcp__x__y", true],
  ["*", "Read", true],
  ["Bash", "Bash", true],
  ["Bash", "BashOutput", false],
  ["Bash", "bash", false],
  ["Edit|Write", "Write", true],
  ["Edit|Write", "Read", false],
  ["Edit||Write", "Edit", true],
  ["mcp__memory__store", "mcp__memory__store", true],
  ["mcp__memory", "mcp__memory__store", false],
  ["mcp__memory__.*", "mcp__memory__store", true],
  ["mcp__memory__.*", "mcp__files__read", false],
  ["Bash.*", "BashOutput", true],
  ["^Bash$", "BashOutput", false],
  ["Notebook", "NotebookEdit", false],
  ["Note.ook", "NotebookEdit", true],
  [".*file.*", ["Read", "read_file"], true],
  ["Bash", ["Bash", "bash"], true],
  ["bash", ["Bash", "bash"], true],
  ["Task", ["Task", "Agent", "task"], true],
  ["startup|resume", "resume", true],
  ["startup|resume", "compact", false],
  ["(a+)+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", false],
  ["(Bash", "Bash", false],
];

for (const [matcher, value, selects] of cases) {
  Deno.test(
    `matcher ${JSON.stringify(matcher)} ${selects ? "selects" : "does not select"} ${
      JSON.stringify(value)
    }`,
    () => assert.equal(matcherSelects(matcher, value), selects),
  );
}

Deno.test("checkMatcher accepts names, lists, wildcards and safe regular expressions", () => {
  for (const matcher of [undefined, "", "*", "Bash", "Edit|Write", "mcp__.*", "^(Edit|Write)$"]) {
    assert.equal(checkMatcher(matcher), undefined, String(matcher));
  }
});

Deno.test("checkMatcher names a catastrophic regular expression, which selects nothing", () => {
  const message = checkMatcher("(a+)+$");
  assert.match(message ?? "", /^Hook matcher "\(a\+\)\+\$" could take exponential time/);
  assert.equal(matcherSelects("(a+)+$", "a"), false);
});

Deno.test("checkMatcher names an invalid regular expression, which selects nothing", () => {
  assert.match(checkMatcher("(Bash") ?? "", /^Hook matcher "\(Bash" is not a valid regular/);
});

Deno.test("a catastrophic matcher returns at once on a long hostile value", () => {
  const started = performance.now();
  assert.equal(matcherSelects("^(\\w+\\s?)*$", `${"a".repeat(5000)}!`), false);
  assert.ok(performance.now() - started < 500);
});

Deno.test("loadHookMatchers loads nothing for matchers that are names, lists or wildcards", async () => {
  // A fresh module: what this file's own load did does not count.
  const fresh = await import(`./hook_matcher.ts?fresh=${crypto.randomUUID()}`);
  await fresh.loadHookMatchers(["Bash", "Edit|Write", "*", "", undefined]);
  assert.equal(fresh.matcherSelects("Edit|Write", "Write"), true);
  assert.throws(() => fresh.matcherSelects("Bash.*", "BashOutput"), /loadHookMatchers/);
  await fresh.loadHookMatchers(["Bash.*"]);
  assert.equal(fresh.matcherSelects("Bash.*", "BashOutput"), true);
});
