import assert from "node:assert/strict";
import { pathAlias, readDeniedNote, searchedNames } from "./read_deny.ts";

const ROOT = "/ws";

Deno.test("a plain file is judged by its workspace path and its real path", () => {
  assert.deepEqual(searchedNames(ROOT, { relative: "src/a.ts", realPath: "/ws/src/a.ts" }), [
    "src/a.ts",
    "/ws/src/a.ts",
  ]);
});

Deno.test("a symlinked file is judged by the link's name and its target's, in the workspace too", () => {
  assert.deepEqual(searchedNames(ROOT, { relative: "notes", realPath: "/ws/.env" }), [
    "notes",
    "/ws/.env",
    ".env",
  ]);
});

Deno.test("a file under a search path given through a symlinked directory is judged by that name too", () => {
  const alias = pathAlias(ROOT, "secrets", "vault");
  assert.deepEqual(alias, { named: "secrets", real: "vault" });
  assert.deepEqual(searchedNames(ROOT, { relative: "vault/k", realPath: "/ws/vault/k" }, alias), [
    "vault/k",
    "/ws/vault/k",
    "secrets/k",
  ]);
  const toRoot = pathAlias(ROOT, "/ws/here", ".");
  assert.deepEqual(searchedNames(ROOT, { relative: "k", realPath: "/ws/k" }, toRoot), [
    "k",
    "/ws/k",
    "here/k",
  ]);
  assert.equal(pathAlias(ROOT, "./src/", "src"), undefined);
  assert.equal(pathAlias(ROOT, "/elsewhere", "src"), undefined);
});

Deno.test("the note counts the files left out without naming them", () => {
  assert.equal(readDeniedNote(1, "searched"), "[1 file not searched: a Read deny rule covers it]");
  assert.equal(readDeniedNote(3, "listed"), "[3 files not listed: Read deny rules cover them]");
});
