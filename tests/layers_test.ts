import assert from "node:assert/strict";
import { resolve } from "node:path";
import { layerViolations } from "./check_layers.ts";

Deno.test("no module imports against the layer order events ← core ← cli", async () => {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  assert.deepEqual(await layerViolations(root), []);
});

Deno.test("the layer check reports an import from core into cli", async () => {
  const root = await Deno.makeTempDir();
  try {
    for (const dir of ["events", "core", "cli"]) await Deno.mkdir(`${root}/${dir}`);
    await Deno.writeTextFile(`${root}/cli/ui.ts`, "export const x = 1;\n");
    await Deno.writeTextFile(`${root}/core/loop.ts`, 'import { x } from "../cli/ui.ts";\n');
    const violations = await layerViolations(root);
    assert.equal(violations.length, 1);
    assert.match(violations[0] ?? "", /core\/loop\.ts: imports cli\/ui\.ts/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
