import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { sequentialBash } from "../testing/scenarios.ts";
import { buildBundle, bundleDir } from "../testing/build_bundle.ts";
import { childEnv, tempWorkspace } from "./_cli.ts";

Deno.test("the bundle that `deno task install` puts on the PATH runs a session and replays it", async () => {
  await using ws = await tempWorkspace();
  const dir = await bundleDir();
  using _removed = { [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }) };
  const bundle = await buildBundle(dir);
  await using fake = await startFakeAnthropic({
    script: sequentialBash(2, (i) => `echo ${i} >> out.txt`),
  });
  const project = join(ws.path, "project");
  await Deno.mkdir(project);
  const run = (extra: string[], permissions = ["-A"]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", ...permissions, "--quiet", bundle, ...extra],
      env: childEnv({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-bundle-test-key-123" }),
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const result = await run([
    "-p",
    "append two lines",
    "--allowedTools",
    "Bash",
    "--workspace",
    project,
  ]);
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(result.code, 0, decode(result.stderr));
  assert.equal(decode(result.stdout), "Done: ran 2 commands\n");
  assert.equal(await Deno.readTextFile(join(project, "out.txt")), "1\n2\n");
  // rein's own skills (skills/ beside the bundle's folder) reach the model from the bundle too.
  assert.match(JSON.stringify(fake.requests[0]?.body?.system), /investigate-a-run/);
  const replay = await run(["replay", join(project, ".rein", "events.jsonl"), "--verify", "-q"], [
    "--allow-read",
    "--allow-env",
  ]);
  assert.equal(replay.code, 0, decode(replay.stdout) + decode(replay.stderr));
});
