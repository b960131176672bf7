import assert from "node:assert/strict";
import { join } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";
import { AGENTS_SOURCE, agentSet } from "./agent_set.ts";
import { readAgentFiles } from "./read_agent_files.ts";

function file(path: string, name: string, description = `${name} agent`): RecordedFile {
  return {
    source: AGENTS_SOURCE,
    path,
    text: `---\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${path}\n`,
  };
}

Deno.test("the types are the built-in ones, then the definitions; a project agent shadows a user agent", () => {
  const { items, diagnostics } = agentSet([
    file("/ws/.claude/agents/a.md", "reviewer", "project reviewer"),
    file("/home/.claude/agents/a.md", "reviewer", "user reviewer"),
    file("/home/.claude/agents/b.md", "tester"),
    { source: "skills", path: "/ws/x.md", text: "not an agent" },
  ]);
  assert.deepEqual(items.map((t) => t.name), ["general-purpose", "Explore", "reviewer", "tester"]);
  assert.equal(items[2]?.description, "project reviewer");
  assert.deepEqual(diagnostics, [
    'Skipped the agent definition at "/home/.claude/agents/a.md": the agent "reviewer" at ' +
    '"/ws/.claude/agents/a.md" has the same name and takes precedence (project agents over ' +
    "~/.claude agents)",
  ]);
});

Deno.test("a definition named like a built-in type replaces it in its place", () => {
  const { items } = agentSet([file("/ws/.claude/agents/e.md", "Explore", "my explorer")]);
  assert.deepEqual(items.map((t) => t.name), ["general-purpose", "Explore"]);
  assert.equal(items[1]?.description, "my explorer");
  assert.equal(items.length, 2);
});

Deno.test("definition files are read from .claude/agents of the project and the home; a bad one is reported and not recorded", async () => {
  const root = await Deno.makeTempDir({ prefix: "rein-agents-" });
  try {
    const workspace = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(join(workspace, ".claude", "agents"), { recursive: true });
    await Deno.mkdir(join(home, ".claude", "agents"), { recursive: true });
    await Deno.writeTextFile(
      join(workspace, ".claude", "agents", "b.md"),
      "---\nname: b\ndescription: B\n---\n",
    );
    await Deno.writeTextFile(join(workspace, ".claude", "agents", "a.md"), "no frontmatter\n");
    await Deno.writeTextFile(join(workspace, ".claude", "agents", "notes.txt"), "ignored\n");
    await Deno.writeTextFile(
      join(home, ".claude", "agents", "c.md"),
      "---\nname: c\ndescription: C\n---\n",
    );
    const notices: string[] = [];
    const files = await readAgentFiles({ workspace, home, onNotice: (n) => notices.push(n) });
    assert.deepEqual(files.map((f) => f.path), [
      join(workspace, ".claude", "agents", "b.md"),
      join(home, ".claude", "agents", "c.md"),
    ]);
    assert.deepEqual(notices, [
      `Skipped the agent definition at "${join(workspace, ".claude", "agents", "a.md")}": it ` +
      "has no frontmatter (a --- line, YAML with a name and a description, a --- line)",
    ]);
    assert.deepEqual(agentSet(files).items.map((t) => t.name), [
      "general-purpose",
      "Explore",
      "b",
      "c",
    ]);
    const none = await readAgentFiles({
      workspace: join(root, "none"),
      home: undefined,
      onNotice: (n) => notices.push(n),
    });
    assert.deepEqual(none, []);
    assert.equal(notices.length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
