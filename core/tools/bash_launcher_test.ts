import assert from "node:assert/strict";
import { bashLauncher } from "./bash_launcher.ts";
import { tempDir } from "../../testing/tool_helpers.ts";

async function outputOf(spawned: Awaited<ReturnType<ReturnType<typeof bashLauncher>>>) {
  const [out] = await Promise.all([
    new Response(spawned.child.stdout).text(),
    new Response(spawned.child.stderr).text(),
    spawned.child.status,
  ]);
  await spawned.release();
  return out;
}

Deno.test("bashLauncher sets a session's variables in the command's shell, taken literally, with no positional arguments left", async () => {
  await using dir = await tempDir();
  const spawn = bashLauncher({ workspace: dir.path });
  const env = { GREETING: "a b; $(echo no) `x`", PATH: `${dir.path}/bin:/usr/bin:/bin` };
  const short = 'echo "$GREETING|$#|$0"; echo "$PATH"; echo $LINENO';
  assert.equal(
    await outputOf(await spawn(short, env)),
    `a b; $(echo no) \`x\`|0|bash\n${dir.path}/bin:/usr/bin:/bin\n1\n`,
  );
  // A command long enough to go in a script file gets them too.
  const long = `echo "$GREETING" # ${"x".repeat(100 * 1024)}`;
  assert.equal(await outputOf(await spawn(long, env)), "a b; $(echo no) `x`\n");
  // Without variables the command runs as before.
  assert.equal(await outputOf(await spawn('echo "$#|$0"')), "0|bash\n");
});
