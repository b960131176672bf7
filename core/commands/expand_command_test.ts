import assert from "node:assert/strict";
import { join } from "node:path";
import { parseCommand } from "./command.ts";
import {
  expandCommand,
  type ExpandDeps,
  shellLines,
  splitArguments,
  substituteArguments,
} from "./expand_command.ts";

Deno.test("$ARGUMENTS is all the arguments, $1…$9 the words (quotes keep blanks); a body without either gets them appended", () => {
  assert.deepEqual(splitArguments(`a.ts "two words" 'x y' z`), ["a.ts", "two words", "x y", "z"]);
  assert.equal(
    substituteArguments("Fix $1 then $2; $3 is empty. All: $ARGUMENTS", ` a.ts "high prio" `),
    'Fix a.ts then high prio;  is empty. All: a.ts "high prio"',
  );
  assert.equal(substituteArguments("Costs $10 and $1", "x"), "Costs $10 and x");
  assert.equal(
    substituteArguments("Review the code.\n", "src/"),
    "Review the code.\n\nARGUMENTS: src/",
  );
  assert.equal(substituteArguments("Review the code.\n", "  "), "Review the code.");
});

Deno.test("!`cmd` at a line's start or after a blank is a shell line; inline code is not", () => {
  assert.deepEqual(
    shellLines("Status: !`git status --short`\n!`git log -1`\nsee `!x` and a!`b`"),
    ["git status --short", "git log -1"],
  );
});

async function withWorkspace(
  files: Record<string, string>,
  run: (workspace: string) => Promise<void>,
): Promise<void> {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-commands-" }));
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(workspace, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(workspace, path), text);
    }
    await run(workspace);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

function command(workspace: string, text: string) {
  const parsed = parseCommand(join(workspace, ".claude/commands/c.md"), text, workspace);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.command;
}

Deno.test("a command expands: shell lines run and are inlined, @files inside the workspace are appended, others left as written", async () => {
  await withWorkspace({ "notes.md": "NOTE TEXT\n", "../outside.md": "SECRET\n" }, async (ws) => {
    const ran: string[] = [];
    const deps: ExpandDeps = {
      workspace: ws,
      credentials: [],
      refuse: () => undefined,
      run: (line) => {
        ran.push(line);
        return Promise.resolve({ output: `out of ${line}\n`, isError: false });
      },
    };
    const invoked = await expandCommand(
      command(
        ws,
        "---\nallowed-tools: Bash(echo:*)\n---\nNow:\n!`echo hi`\nRead @notes.md, @../outside.md, @missing.md and mail me@host.\n",
      ),
      "",
      deps,
    );
    assert.deepEqual(ran, ["echo hi"]);
    assert.deepEqual(invoked.shell, [{
      command: "echo hi",
      output: "out of echo hi\n",
      isError: false,
    }]);
    assert.deepEqual(invoked.files, [join(ws, "notes.md")]);
    assert.deepEqual(invoked.allowedTools, ["Bash(echo:*)"]);
    assert.equal(
      invoked.prompt,
      "Now:\nout of echo hi\nRead @notes.md, @../outside.md, @missing.md and mail me@host.\n\n" +
        "Contents of notes.md:\n\nNOTE TEXT",
    );
    assert.equal(invoked.refused, undefined);
  });
});

Deno.test("a shell line no rule allows refuses the whole command before anything runs", async () => {
  await withWorkspace({}, async (ws) => {
    const ran: string[] = [];
    const invoked = await expandCommand(
      command(ws, "!`git status`\n!`rm -rf build`\n"),
      "x",
      {
        workspace: ws,
        credentials: [],
        refuse: (line) => line.startsWith("rm") ? "no permission rule allows it" : undefined,
        run: (line) => {
          ran.push(line);
          return Promise.resolve({ output: "", isError: false });
        },
      },
    );
    assert.deepEqual(ran, []);
    assert.equal(invoked.prompt, "");
    assert.match(
      invoked.refused ?? "",
      /Cannot run \/c: its line !`rm -rf build` is not allowed \(no permission rule allows it\)/,
    );
  });
});
