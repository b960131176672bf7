import assert from "node:assert/strict";
import { loadOnUse, requireOnUse } from "./build.ts";

Deno.test("loadOnUse makes the bundle's own chunk imports opaque to Deno's start-up loading", () => {
  const chunks = new Set(["repl-AB12.js", "chunk-X.js"]);
  const text = 'a=()=>import("./repl-AB12.js");b=import("./chunk-X.js");c=import("./other.js");' +
    'd=import("npm:x");e="import(\\"./repl-AB12.js\\")"';
  assert.equal(
    loadOnUse(text, chunks),
    'a=()=>import(String("./repl-AB12.js"));b=import(String("./chunk-X.js"));' +
      'c=import("./other.js");d=import("npm:x");e="import(\\"./repl-AB12.js\\")"',
  );
});

Deno.test("requireOnUse makes the bundler's createRequire load node:module on the first require only", async () => {
  const text =
    'var j=1;import{createRequire as __deno_internal_createRequire} from "node:module";' +
    "var m=__deno_internal_createRequire(import.meta.url);export{m as a};";
  const lazy = requireOnUse(text);
  assert.doesNotMatch(lazy, /node:module";/);
  assert.match(lazy, /^var j=1;var m__made;var m=\(id\)=>/);
  // The rewritten chunk runs and its require works.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/chunk.js`, lazy);
    const chunk = await import(`file://${dir}/chunk.js`);
    assert.equal(chunk.a("node:path").join("a", "b"), "a/b");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.equal(requireOnUse("var x=1;"), "var x=1;");
});
