import assert from "node:assert/strict";
import { parseRule } from "./rule.ts";

const valid: [text: string, tool: string, specifier?: string][] = [
  ["Bash", "bash"],
  ["Bash(*)", "bash"],
  ["Bash(npm run test *)", "bash", "npm run test *"],
  ["Bash(git diff:*)", "bash", "git diff:*"],
  ["Bash(echo \\(hi\\))", "bash", "echo (hi)"],
  ["Bash(echo $(date))", "bash", "echo $(date)"],
  ["  Read(./.env)  ", "read_file", "./.env"],
  ["Write(src/**)", "write_file", "src/**"],
  ["Edit(/src/**/*.ts)", "edit_file", "/src/**/*.ts"],
  ["Glob", "glob"],
  ["Grep", "grep"],
  ["Task(Explore)", "task", "Explore"],
  ["Agent(Explore)", "task", "Explore"],
  ["Skill(deploy)", "load_skill", "deploy"],
  ["TodoWrite", "todo_write"],
  ["TaskOutput", "job_output"],
  ["BashOutput", "job_output"],
  ["TaskStop", "job_stop"],
  ["KillShell", "job_stop"],
  ["KillBash", "job_stop"],
  ["TaskCreate", "create_task"],
  ["TaskUpdate", "update_task"],
  ["claim_task", "claim_task"],
  ["read_file(~/.ssh/**)", "read_file", "~/.ssh/**"],
  ["bash(ls *)", "bash", "ls *"],
  ["WebFetch(domain:example.com)", "WebFetch", "domain:example.com"],
  ["MultiEdit(src/**)", "edit_file", "src/**"],
  ["LS", "glob"],
  ["NotebookEdit", "NotebookEdit"],
  ["mcp__github", "mcp__github"],
  ["mcp__github__*", "mcp__github"],
  ["mcp__github__create_issue", "mcp__github__create_issue"],
  ["mcp__my-server__create-pull-request", "mcp__my-server__create-pull-request"],
];

for (const [text, tool, specifier] of valid) {
  Deno.test(`parseRule reads "${text}" as ${tool}${specifier ? ` with "${specifier}"` : ""}`, () => {
    const expected = specifier === undefined
      ? { text: text.trim(), tool }
      : { text: text.trim(), tool, specifier };
    assert.deepEqual(parseRule(text), { ok: true, rule: expected });
  });
}

const malformed: [text: string, detail: string][] = [
  ["", "the rule is empty"],
  ["Bash(npm test", 'missing ")" at the end'],
  ["Bash(a))", '")" without a matching "("'],
  ["Bash)", '")" without a matching "("'],
  ["Bash(ls)x", 'unexpected text after ")": "x"'],
  ["(ls)", "missing the tool name"],
  ["Bash()", "empty parentheses"],
  ["Bsh(ls)", 'unknown tool "Bsh"'],
  ["bash_tool", 'unknown tool "bash_tool"'],
  ["Bash (ls)", "contains whitespace"],
  ["mcp__", "missing the MCP server name"],
  ["mcp____tool", "missing the MCP server name"],
  ["mcp__github__", 'missing the tool name after "mcp__github__"'],
  ["mcp__github(x)", "MCP rules take no parentheses"],
];

for (const [text, detail] of malformed) {
  Deno.test(`parseRule rejects "${text}" saying ${detail}`, () => {
    const parsed = parseRule(text);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.ok(parsed.message.startsWith(`Invalid permission rule "${text.trim()}": `));
    assert.ok(parsed.message.includes(detail), parsed.message);
  });
}
