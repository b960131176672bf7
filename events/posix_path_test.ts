import * as node from "node:path";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as own from "./posix_path.ts";

/** Paths of the pieces that matter to path arithmetic: slashes, dots, names, dotted names. */
const piece = fc.constantFrom("/", "//", ".", "..", "...", "a", "b", ".x", "a.b", "c.", "a..b");
const path = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(""));
const runs = { numRuns: 3000 };

Deno.test("normalize, dirname, basename, extname and isAbsolute agree with node:path on any path", () => {
  fc.assert(
    fc.property(path, (p) => {
      assert.equal(own.normalize(p), node.posix.normalize(p), `normalize(${JSON.stringify(p)})`);
      assert.equal(own.dirname(p), node.posix.dirname(p), `dirname(${JSON.stringify(p)})`);
      assert.equal(own.basename(p), node.posix.basename(p), `basename(${JSON.stringify(p)})`);
      assert.equal(own.extname(p), node.posix.extname(p), `extname(${JSON.stringify(p)})`);
      assert.equal(own.isAbsolute(p), node.posix.isAbsolute(p));
    }),
    runs,
  );
});

Deno.test("join, resolve and relative agree with node:path on any paths", () => {
  fc.assert(
    fc.property(fc.array(path, { maxLength: 4 }), path, path, (parts, from, to) => {
      assert.equal(own.join(...parts), node.posix.join(...parts), `join(${JSON.stringify(parts)})`);
      assert.equal(
        own.resolve(...parts),
        node.posix.resolve(...parts),
        `resolve(${JSON.stringify(parts)})`,
      );
      assert.equal(
        own.relative(from, to),
        node.posix.relative(from, to),
        `relative(${JSON.stringify(from)}, ${JSON.stringify(to)})`,
      );
    }),
    runs,
  );
});

Deno.test("the cases rein leans on read as expected", () => {
  assert.equal(own.join("/work", "a/../b", "c/"), "/work/b/c/");
  assert.equal(own.join(), ".");
  assert.equal(own.resolve("/root", "x", "/abs", "y"), "/abs/y");
  assert.equal(own.resolve("rel"), node.posix.join(Deno.cwd(), "rel"));
  assert.equal(own.relative("/a/b/c", "/a/d"), "../../d");
  assert.equal(own.relative("/a", "/a"), "");
  assert.equal(own.dirname("/"), "/");
  assert.equal(own.basename("/a/b/"), "b");
  assert.equal(own.extname(".bashrc"), "");
  assert.equal(own.sep, node.posix.sep);
});
