import assert from "node:assert/strict";
import { join } from "node:path";
import { readCommandFiles } from "./read_command_files.ts";

Deno.test("command files are read from the project's and the person's folders, subfolders too, in order; a link out of the project is reported and not recorded", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-commands-" }));
  try {
    const ws = join(root, "ws");
    const home = join(root, "home");
    const project = join(ws, ".claude", "commands");
    await Deno.mkdir(join(project, "b-sub"), { recursive: true });
    await Deno.mkdir(join(home, ".claude", "commands"), { recursive: true });
    await Deno.writeTextFile(join(project, "z.md"), "Z\n");
    await Deno.writeTextFile(join(project, "b-sub", "a.md"), "A\n");
    await Deno.writeTextFile(join(project, "notes.txt"), "not a command\n");
    await Deno.writeTextFile(join(home, ".claude", "commands", "z.md"), "my Z\n");
    await Deno.writeTextFile(join(home, ".claude", "commands", "mine.md"), "mine\n");
    await Deno.writeTextFile(join(root, "secret.md"), "outside\n");
    await Deno.symlink(join(root, "secret.md"), join(project, "leak.md"));
    const notices: string[] = [];
    const files = await readCommandFiles({
      workspace: ws,
      home,
      onNotice: (message) => notices.push(message),
    });
    assert.deepEqual(files.map((f) => f.path), [
      join(project, "z.md"),
      join(project, "b-sub", "a.md"),
      join(home, ".claude", "commands", "mine.md"),
    ]);
    assert.ok(files.every((f) => f.source === "commands"));
    assert.equal(notices.length, 2, notices.join("\n"));
    assert.match(notices[0] ?? "", /Skipped the command at ".*leak\.md": /);
    assert.match(
      notices[1] ?? "",
      /home\/\.claude\/commands\/z\.md": the command "\/z" .* takes precedence/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
