import assert from "node:assert/strict";
import { loadOnUse } from "./build.ts";

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
