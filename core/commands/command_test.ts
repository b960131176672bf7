import assert from "node:assert/strict";
import { parseCommand } from "./command.ts";
import { commandSet } from "./command_set.ts";

const WS = "/work/app";
const PROJECT = `${WS}/.claude/commands`;
const USER = "/home/me/.claude/commands";

Deno.test("a command file's frontmatter gives its fields; the file's name is its name", () => {
  const parsed = parseCommand(
    `${PROJECT}/review.md`,
    "---\ndescription: Review code\nargument-hint: [file] [focus]\n" +
      "allowed-tools: Bash(git status:*), Bash(git diff:*), Read\nmodel: haiku\n---\n\nReview $1.\n",
    WS,
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.command, {
    name: "review",
    scope: "project",
    namespace: "",
    description: "Review code",
    argumentHint: "[file] [focus]",
    allowedTools: ["Bash(git status:*)", "Bash(git diff:*)", "Read"],
    model: "haiku",
    body: "Review $1.\n",
    path: `${PROJECT}/review.md`,
  });
});

Deno.test("a command without frontmatter is described by its first line; a subfolder is its namespace, not its name", () => {
  const parsed = parseCommand(
    `${USER}/frontend/ui/component.md`,
    "# Make a component\nDo it.\n",
    WS,
  );
  assert.ok(parsed.ok);
  assert.equal(parsed.command.name, "component");
  assert.equal(parsed.command.scope, "user");
  assert.equal(parsed.command.namespace, "frontend/ui");
  assert.equal(parsed.command.description, "Make a component");
  assert.deepEqual(parsed.command.allowedTools, []);
  assert.equal(parsed.command.argumentHint, undefined);
});

Deno.test("a command file that cannot be used is refused with its path and the reason", () => {
  const cases: [string, string, RegExp][] = [
    [`${PROJECT}/bad name.md`, "x", /name "bad name" is not a name/],
    [`${PROJECT}/a.md`, "---\nallowed-tools: {Read: true}\n---\n", /allowed-tools is neither/],
    [`${PROJECT}/a.md`, "---\ndescription: [1, 2]\n---\n", /description is not a text/],
    [`${PROJECT}/a.md`, "---\nmodel: 3\n---\n", /model is not a text/],
    [`${PROJECT}/a.md`, "---\ndescription: d\n: [x\n---\n", /not valid YAML/],
  ];
  for (const [path, text, why] of cases) {
    const parsed = parseCommand(path, text, WS);
    assert.equal(parsed.ok, false, text);
    if (!parsed.ok) {
      assert.match(parsed.message, new RegExp(`^Skipped the command at "${path}": `));
      assert.match(parsed.message, why);
    }
  }
});

Deno.test("the first command of a name wins: the project's over the person's, each clash reported", () => {
  const set = commandSet([
    { source: "commands", path: `${PROJECT}/deploy.md`, text: "Deploy the project.\n" },
    { source: "commands", path: `${PROJECT}/ops/deploy.md`, text: "Deploy ops.\n" },
    { source: "commands", path: `${USER}/deploy.md`, text: "Deploy mine.\n" },
    { source: "commands", path: `${USER}/mine.md`, text: "Mine.\n" },
    { source: "skills", path: "/elsewhere/SKILL.md", text: "not a command" },
  ], WS);
  assert.deepEqual(set.items.map((c) => `${c.scope}:${c.name}`), ["project:deploy", "user:mine"]);
  assert.equal(set.diagnostics.length, 2);
  assert.match(
    set.diagnostics[0] ?? "",
    /ops\/deploy\.md": the command "\/deploy" at .* takes precedence/,
  );
});
