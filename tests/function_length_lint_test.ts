import assert from "node:assert/strict";
import { join, relative, resolve } from "node:path";
import plugin, { MAX_FUNCTION_LINES } from "./function_length_lint.ts";

const root = resolve(new URL(".", import.meta.url).pathname, "..");

/** A function `name` spanning `lines` lines, declared in each way the rule looks at. */
function spanning(name: string, lines: number, shape: "declaration" | "arrow" | "method"): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const x${i} = ${i};`).join("\n");
  switch (shape) {
    case "declaration":
      return `export function ${name}(): void {\n${body}\n}\n`;
    case "arrow":
      return `export const ${name} = (): void => {\n${body}\n};\n`;
    case "method":
      return `export class Holder {\n  ${name}(): void {\n${body}\n  }\n}\n`;
  }
}

function reports(file: string, source: string): string[] {
  return Deno.lint.runPlugin(plugin, join(root, file), source).map((d) => d.message);
}

Deno.test("a function in core/ one line over the limit is reported by name, however it is declared", () => {
  const over = MAX_FUNCTION_LINES + 1;
  for (const shape of ["declaration", "arrow", "method"] as const) {
    assert.deepEqual(reports("core/loop/long.ts", spanning("tooLong", over, shape)), [
      `Function tooLong is ${over} lines long, more than the 150 a function in core/ may have`,
    ], shape);
    assert.deepEqual(
      reports("core/loop/long.ts", spanning("atLimit", MAX_FUNCTION_LINES, shape)),
      [],
    );
  }
});

Deno.test("functions outside core/ are not held to the limit", () => {
  const long = spanning("tooLong", MAX_FUNCTION_LINES + 20, "declaration");
  assert.deepEqual(reports("cli/long.ts", long), []);
  assert.deepEqual(reports("tests/long_test.ts", long), []);
});

Deno.test("no function in core/ is longer than the limit", async () => {
  const found: string[] = [];
  for await (const path of tsFiles(join(root, "core"))) {
    const source = await Deno.readTextFile(path);
    for (const d of Deno.lint.runPlugin(plugin, path, source)) {
      found.push(`${relative(root, path)}: ${d.message}`);
    }
  }
  assert.deepEqual(found, []);
});

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* tsFiles(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}
