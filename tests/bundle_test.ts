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

/** The chunks `file` imports statically (`import … from"./x.js"`, `import"./x.js"`), by name. */
function staticChunks(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*)"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
}

Deno.test("a plain agent run's chunks import no Node module at load (each costs the start Node's compatibility layer)", async () => {
  const dir = await bundleDir();
  using _removed = { [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }) };
  const bundle = await buildBundle(dir);
  const folder = join(bundle, "..");
  const names = [...Deno.readDirSync(folder)].map((entry) => entry.name);
  // main.js, then what `rein -p` loads on its way to the first request: the agent command and
  // the headless runner (the chunks main.js and agent_command load with `import(String(…))`).
  const entries = ["main.js", ...names.filter((n) => /^(agent_command|headless)-/.test(n))];
  assert.equal(entries.length, 3, `chunks: ${names.join(", ")}`);
  const seen = new Set<string>();
  const offenders: string[] = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const text = await Deno.readTextFile(join(folder, name));
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)"(node:[\w/]+)"/g)) {
      offenders.push(`${name}: ${m[1]}`);
    }
    queue.push(...staticChunks(text));
  }
  assert.deepEqual(offenders, [], `static Node imports on the start path`);
});

Deno.test("every chunk of the bundle is Latin-1: V8 holds a module's source one byte a character, not two", async () => {
  const dir = await bundleDir();
  using _removed = { [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }) };
  const folder = join(await buildBundle(dir), "..");
  const offenders: string[] = [];
  for (const entry of Deno.readDirSync(folder)) {
    if (!entry.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(join(folder, entry.name));
    // A character past Latin-1 (U+00FF) anywhere in a chunk, as the bundler leaves one in a
    // regular expression, doubles the memory its source takes in every rein process.
    let at = 0;
    while (at < text.length && text.charCodeAt(at) <= 0xff) at++;
    if (at < text.length) {
      offenders.push(`${entry.name}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 20))}`);
    }
  }
  assert.deepEqual(offenders, []);
});
