/**
 * The permission check of one call over 500 rules (target: under 50 µs a call):
 * `deno bench --allow-all bench/permissions_bench.ts`. The rules mix Bash patterns, Read and Edit
 * paths and MCP names, as a large team's settings would; the calls are a compound bash command
 * and a file edit, both of which walk every list.
 * @module
 */
import { decide, parseRule, type PermissionRules, type Rule } from "../core/permissions/mod.ts";
import { judgeCall } from "../core/permissions/judge.ts";
import type { PermissionPolicy } from "../core/permissions/policy.ts";
import { loadPathMatcher } from "../core/permissions/path_match.ts";

await loadPathMatcher();

function rules(count: number): PermissionRules {
  const texts = Array.from({ length: count }, (_, i) => {
    switch (i % 5) {
      case 0:
        return `Bash(npm run script${i} *)`;
      case 1:
        return `Read(./secrets/file${i}.txt)`;
      case 2:
        return `Edit(/src/generated${i}/**)`;
      case 3:
        return `Bash(git push origin branch${i}:*)`;
      default:
        return `mcp__server${i}__tool`;
    }
  });
  const parsed: Rule[] = texts.map((text) => {
    const result = parseRule(text);
    if (!result.ok) throw new Error(result.message);
    return result.rule;
  });
  return {
    deny: parsed.slice(0, count / 5),
    ask: parsed.slice(count / 5, (2 * count) / 5),
    allow: parsed.slice((2 * count) / 5),
  };
}

const RULES = rules(500);
const CONTEXT = { cwd: "/work/app", home: "/home/dev", projectRoot: "/work/app" };

Deno.bench("permission check: bash compound command over 500 rules", () => {
  decide(
    { tool: "bash", input: { command: "cd src && npm test -- --watch=false | tail -n 20" } },
    RULES,
    CONTEXT,
  );
});

Deno.bench("permission check: edit_file over 500 rules", () => {
  decide(
    { tool: "edit_file", input: { path: "src/app/main.ts", old_string: "a", new_string: "b" } },
    RULES,
    CONTEXT,
  );
});

/** The whole judgement the gate makes: destructive list, rules, read-only check and mode. */
const POLICY: PermissionPolicy = {
  rules: {
    allow: RULES.allow.map((rule) => ({ ...rule, file: "/work/app/.claude/settings.json" })),
    ask: RULES.ask.map((rule) => ({ ...rule, file: "/work/app/.claude/settings.json" })),
    deny: RULES.deny.map((rule) => ({ ...rule, file: "/work/app/.claude/settings.json" })),
  },
  mode: "default",
  additionalDirectories: [],
  context: CONTEXT,
  interactive: false,
  settings: { other: {} },
  diagnostics: [],
};

Deno.bench("gate judgement: bash compound command over 500 rules", () => {
  judgeCall(
    { tool: "bash", input: { command: "cd src && npm test -- --watch=false | tail -n 20" } },
    POLICY,
  );
});

Deno.bench("gate judgement: edit_file over 500 rules", () => {
  judgeCall(
    { tool: "edit_file", input: { path: "src/app/main.ts", old_string: "a", new_string: "b" } },
    POLICY,
  );
});
