import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ensureMachineKey,
  machineKeyPath,
  machineStateDir,
  readMachineKey,
  signText,
} from "./machine_key.ts";

Deno.test("the machine key lives in XDG_STATE_HOME/rein, else ~/.local/state/rein, never without an absolute home", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(machineStateDir(env({ HOME: "/h", XDG_STATE_HOME: "/s" })), "/s/rein");
  assert.equal(machineStateDir(env({ HOME: "/h", XDG_STATE_HOME: "rel" })), "/h/.local/state/rein");
  assert.equal(machineKeyPath(env({ HOME: "/h" })), "/h/.local/state/rein/machine-key");
  assert.equal(machineKeyPath(env({ HOME: "h" })), undefined);
  assert.equal(machineKeyPath(env({})), undefined);
});

Deno.test("the machine key is made once, readable by its owner only, and the same for processes that make it at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "state", "rein", "machine-key");
    assert.equal(await readMachineKey(path), undefined);
    const keys = await Promise.all([1, 2, 3, 4].map(() => ensureMachineKey(path)));
    for (const key of keys) assert.deepEqual(key, keys[0]);
    assert.deepEqual(await readMachineKey(path), keys[0]);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(join(dir, "state", "rein"))).mode! & 0o777, 0o700);
    assert.deepEqual([...Deno.readDirSync(join(dir, "state", "rein"))].map((e) => e.name), [
      "machine-key",
    ]);
    const key = keys[0]!;
    assert.match(key.id, /^[0-9a-f]{32}$/);
    assert.ok(!key.secret.includes(key.id), "the id is not part of the secret");
    assert.notEqual(await signText(key, "a"), await signText(key, "b"));
    assert.equal(await signText(key, "a"), await signText(key, "a"));
    // Another machine's key signs otherwise.
    const other = await ensureMachineKey(join(dir, "other", "machine-key"));
    assert.notEqual(other.id, key.id);
    assert.notEqual(await signText(other, "a"), await signText(key, "a"));
    // Something that is not a key is not read as one.
    await Deno.writeTextFile(path, "not a key\n");
    assert.equal(await readMachineKey(path), undefined);
    await assert.rejects(() => ensureMachineKey(path));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
