import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../testing/events.ts";

const PROBE = new URL("./_probe_paths.ts", import.meta.url).href;

/** Runs probePaths(`paths`) in a Deno that may read only `readable`, and run bash. */
async function probeNarrowed(readable: string, paths: string[]): Promise<unknown> {
  const code = `import { probePaths } from ${JSON.stringify(PROBE)};\n` +
    `console.log(JSON.stringify(await probePaths(${JSON.stringify(paths)})));`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `--allow-read=${readable}`,
      "--allow-run=bash",
      "--no-prompt",
      "--quiet",
      code,
    ],
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, stderr);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("probePaths finds what a narrowed Deno cannot read, directories by their real path", async () => {
  await using dir = await tempDir();
  const outside = join(dir.path, "outside");
  const secrets = join(outside, "real-secrets");
  await Deno.mkdir(secrets, { recursive: true });
  await Deno.symlink(secrets, join(outside, ".ssh"));
  await Deno.writeTextFile(join(outside, ".netrc"), "machine x");
  await Deno.symlink(join(outside, "gone"), join(outside, ".dangling"));
  const locked = join(outside, "locked");
  await Deno.mkdir(join(locked, "inner"), { recursive: true });
  const inside = join(dir.path, "inside");
  await Deno.mkdir(inside);
  const asked = [
    join(outside, ".ssh"),
    join(outside, ".netrc"),
    join(outside, ".missing"),
    join(outside, ".dangling"),
    join(locked, "inner"),
    inside,
  ];
  await Deno.chmod(locked, 0o600);
  try {
    const probed = await probeNarrowed(inside, asked);
    // cd cannot enter locked/inner as a non-root user: realpath answers then (root enters).
    assert.deepEqual(probed, [
      { kind: "directory", real: await Deno.realPath(secrets) },
      { kind: "file", real: join(outside, ".netrc") },
      null,
      null,
      { kind: "directory", real: join(await Deno.realPath(outside), "locked", "inner") },
      { kind: "directory", real: await Deno.realPath(inside) },
    ]);
  } finally {
    await Deno.chmod(locked, 0o700);
  }
});
