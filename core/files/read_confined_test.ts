import assert from "node:assert/strict";
import { join } from "node:path";
import { type Confinement, readConfined } from "./read_confined.ts";

const linux = Deno.build.os === "linux";

/** A root folder and a folder outside it holding a credential store and a plain file. */
async function place() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein_confined_" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(join(outside, ".ssh"), { recursive: true });
  await Deno.writeTextFile(join(outside, ".ssh", "id_rsa"), "PRIVATE KEY\n");
  await Deno.writeTextFile(join(outside, "notes.md"), "outside notes\n");
  await Deno.writeTextFile(join(root, "ok.md"), "inside\n");
  const limits: Confinement = {
    roots: [root],
    credentials: [join(outside, ".ssh")],
    maxBytes: 100,
  };
  return {
    root,
    outside,
    limits,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("a regular file inside its root is read, and a symlink that stays inside too", async () => {
  await using p = await place();
  await Deno.symlink("ok.md", join(p.root, "link.md"));
  const read = await readConfined(join(p.root, "link.md"), p.limits);
  assert.ok(read.ok);
  assert.equal(read.real, join(p.root, "ok.md"));
  assert.equal(text(read.bytes), "inside\n");
  assert.equal(read.size, 7);
});

Deno.test("a symlink out of the root is refused, naming where it leads, and nothing is read", async () => {
  await using p = await place();
  await Deno.symlink(join(p.outside, "notes.md"), join(p.root, "CLAUDE.md"));
  assert.deepEqual(await readConfined(join(p.root, "CLAUDE.md"), p.limits), {
    ok: false,
    problem: "outside",
    why: `it leads to "${join(p.outside, "notes.md")}", outside "${p.root}"`,
  });
  await Deno.symlink(p.outside, join(p.root, "dir"));
  const through = await readConfined(join(p.root, "dir", "notes.md"), p.limits);
  assert.equal(through.ok ? "read" : through.problem, "outside");
});

Deno.test("a credential store is never read, even inside the root", async () => {
  await using p = await place();
  await Deno.symlink(join(p.outside, ".ssh", "id_rsa"), join(p.root, "CLAUDE.md"));
  const limits = { ...p.limits, roots: [p.root, p.outside] };
  assert.deepEqual(await readConfined(join(p.root, "CLAUDE.md"), limits), {
    ok: false,
    problem: "credential",
    why: `it leads to "${
      join(p.outside, ".ssh", "id_rsa")
    }", which is where credentials are kept; rein never reads them`,
  });
  const direct = await readConfined(join(p.outside, ".ssh", "id_rsa"), limits);
  assert.equal(direct.ok ? "read" : direct.problem, "credential");
});

Deno.test({
  name: "a named pipe is refused without blocking, and a directory is refused",
  ignore: !linux,
  async fn() {
    await using p = await place();
    const fifo = join(p.root, "CLAUDE.md");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(made.code, 0);
    assert.deepEqual(await readConfined(fifo, p.limits), {
      ok: false,
      problem: "special",
      why: "it is a named pipe, not a regular file",
    });
    await Deno.mkdir(join(p.root, "AGENTS.md"));
    assert.deepEqual(await readConfined(join(p.root, "AGENTS.md"), p.limits), {
      ok: false,
      problem: "special",
      why: "it is a directory, not a regular file",
    });
  },
});

Deno.test("at most the cap and one byte are read of a large sparse file", async () => {
  await using p = await place();
  const big = join(p.root, "big.md");
  await Deno.writeTextFile(big, "line\n".repeat(40));
  await Deno.truncate(big, 2 ** 31);
  const read = await readConfined(big, p.limits);
  assert.ok(read.ok);
  assert.equal(read.bytes.length, 101);
  assert.equal(read.size, 2 ** 31);
  assert.equal(text(read.bytes), "line\n".repeat(20) + "l");
});

Deno.test("a missing file, a dangling link and a missing folder are missing", async () => {
  await using p = await place();
  await Deno.symlink(join(p.root, "gone.md"), join(p.root, "dangling.md"));
  for (const name of ["nothing.md", "dangling.md", "ok.md/under.md", "no/such.md"]) {
    assert.deepEqual(await readConfined(join(p.root, name), p.limits), {
      ok: false,
      problem: "missing",
    });
  }
});

Deno.test({
  name: "a symlink swapped while files are read never yields the outside file",
  ignore: !linux,
  async fn() {
    await using p = await place();
    await Deno.mkdir(join(p.root, "d.real"));
    await Deno.writeTextFile(join(p.root, "d.real", "notes.md"), "inside\n");
    await Deno.symlink(p.outside, join(p.root, "d.out"));
    await Deno.symlink("d.real", join(p.root, "d"));
    const stop = join(p.root, "stop");
    // Another process swaps `d` between the inside folder and the outside one, as fast as it can.
    const swapper = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const r = ${JSON.stringify(p.root)};
         for (let i = 0; ; i++) {
           try { Deno.statSync(r + "/stop"); break; } catch {}
           Deno.symlinkSync(i % 2 ? "d.real" : "d.out", r + "/d.new");
           Deno.renameSync(r + "/d.new", r + "/d");
         }`,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const seen = new Set<string>();
      for (let i = 0; i < 2000; i++) {
        const read = await readConfined(join(p.root, "d", "notes.md"), p.limits);
        seen.add(read.ok ? text(read.bytes) : read.problem);
      }
      assert.ok(!seen.has("outside notes\n"), [...seen].join(", "));
    } finally {
      await Deno.writeTextFile(stop, "");
      await swapper.status;
    }
  },
});
