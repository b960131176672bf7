import assert from "node:assert/strict";
import { join } from "node:path";
import { claudeJsonPath, readTrust, trustedFolders, writeTrust } from "./trust.ts";

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "rein-trust-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("claudeJsonPath: $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json", () => {
  assert.equal(claudeJsonPath("/home/me"), "/home/me/.claude.json");
  assert.equal(claudeJsonPath("/home/me", "/cfg"), "/cfg/.claude.json");
  assert.equal(claudeJsonPath(undefined), undefined);
});

Deno.test("readTrust: no file trusts nothing; a trusted folder trusts the folders inside it", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude.json");
    assert.deepEqual(await readTrust(path, "/work/a"), { trusted: false });
    await writeTrust(path, "/work", true);
    assert.deepEqual(await readTrust(path, "/work/a/b"), { trusted: true, by: "/work" });
    assert.deepEqual(await readTrust(path, "/other"), { trusted: false });
    await writeTrust(path, "/work", false);
    assert.deepEqual(await readTrust(path, "/work/a"), { trusted: false });
  });
});

Deno.test("writeTrust keeps every other key and the file's mode, and never overwrites a malformed file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, ".claude.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ a: 1, projects: { "/p": { allowedTools: ["x"] } }, z: [true] }),
      { mode: 0o640 },
    );
    await Deno.chmod(path, 0o640);
    await writeTrust(path, "/p", true);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), {
      a: 1,
      projects: { "/p": { allowedTools: ["x"], hasTrustDialogAccepted: true } },
      z: [true],
    });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640);
    assert.deepEqual(await trustedFolders(path), ["/p"]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [".claude.json"]);

    await Deno.writeTextFile(path, "[1, 2]");
    await assert.rejects(() => writeTrust(path, "/p", true), /top level is not an object/);
    assert.equal(await Deno.readTextFile(path), "[1, 2]");
    const read = await readTrust(path, "/p");
    assert.equal(read.trusted, false);
    assert.match(read.problem ?? "", /left as it is/);
  });
});
