import assert from "node:assert/strict";
import { parseAgentDefinition } from "./agent_definition.ts";

const PATH = "/ws/.claude/agents/reviewer.md";

function parsed(text: string) {
  const result = parseAgentDefinition(PATH, text);
  if (!result.ok) throw new Error(result.message);
  return result.definition;
}

function problem(text: string): string {
  const result = parseAgentDefinition(PATH, text);
  assert.equal(result.ok, false);
  return result.ok ? "" : result.message;
}

Deno.test("a definition's frontmatter gives its fields and its body the system prompt", () => {
  const definition = parsed(
    "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git *)\n" +
      "model: sonnet\nmaxTurns: 5\npermissionMode: plan\ncolor: red\n---\n\nBe strict.\n",
  );
  assert.deepEqual(definition, {
    name: "reviewer",
    description: "Reviews code",
    tools: ["Read", "Grep", "Bash(git *)"],
    model: "sonnet",
    maxTurns: 5,
    permissionMode: "plan",
    systemPrompt: "Be strict.",
    path: PATH,
  });
});

Deno.test("tools may be a YAML list; without tools, model or maxTurns those stay unset", () => {
  assert.deepEqual(parsed("---\nname: a\ndescription: d\ntools: [read_file, glob]\n---\n").tools, [
    "read_file",
    "glob",
  ]);
  const bare = parsed("---\nname: a\ndescription: d\n---\n");
  assert.equal(bare.tools, undefined);
  assert.equal(bare.model, undefined);
  assert.equal(bare.maxTurns, undefined);
  assert.equal(bare.systemPrompt, "");
});

Deno.test("a malformed definition is refused with its path and what is wrong", () => {
  const cases: [string, RegExp][] = [
    ["Just text", /has no frontmatter/],
    ["---\nname: [unclosed\ndescription: d\n---\n", /frontmatter is not valid YAML/],
    ["---\n- a\n- b\n---\n", /not a YAML mapping/],
    ["---\ndescription: d\n---\n", /has no name/],
    ["---\nname: two words\ndescription: d\n---\n", /name "two words" is not a name/],
    ["---\nname: a\n---\n", /has no description/],
    ["---\nname: a\ndescription: 3\n---\n", /description is not a non-empty text/],
    ["---\nname: a\ndescription: d\ntools: {a: 1}\n---\n", /tools is neither/],
    ["---\nname: a\ndescription: d\nmaxTurns: 0\n---\n", /maxTurns 0 is not a positive/],
    ["---\nname: a\ndescription: d\nmaxTurns: many\n---\n", /maxTurns "many"/],
    ["---\nname: a\ndescription: d\nmodel: ''\n---\n", /model is not a non-empty text/],
    ["---\nname: a\ndescription: d\npermissionMode: yolo\n---\n", /permissionMode "yolo" is/],
  ];
  for (const [text, expected] of cases) {
    const message = problem(text);
    assert.match(
      message,
      /^Skipped the agent definition at "\/ws\/\.claude\/agents\/reviewer\.md": /,
    );
    assert.match(message, expected, text);
  }
});

Deno.test("mcpServers takes configured servers by name and inline {name: config} servers, in order; anything else is refused", () => {
  const definition = parsed(
    "---\nname: a\ndescription: d\nmcpServers:\n  - github\n  - local:\n      command: srv\n" +
      "      args: [--x]\n---\n",
  );
  assert.deepEqual(definition.mcpServers, [
    { name: "github" },
    { name: "local", config: { command: "srv", args: ["--x"] } },
  ]);
  assert.equal(parsed("---\nname: a\ndescription: d\n---\n").mcpServers, undefined);
  assert.match(
    problem("---\nname: a\ndescription: d\nmcpServers: [3]\n---\n"),
    /its mcpServers is not a list of server names and \{name: config\} entries/,
  );
});
