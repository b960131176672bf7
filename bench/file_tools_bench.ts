/**
 * The file tools on the hot path, in a small temporary workspace:
 * `deno bench --allow-all bench/file_tools_bench.ts`. A read of a small file is what the agent
 * does most; the verified open (handle stat and the kernel's path of the handle) must stay cheap.
 * @module
 */
import { join } from "node:path";
import { createEditFileTool } from "../core/tools/edit_file.ts";
import { createGrepTool } from "../core/tools/grep.ts";
import { createReadFileTool } from "../core/tools/read_file.ts";
import { createWriteFileTool } from "../core/tools/write_file.ts";
import { callContext } from "../testing/tool_helpers.ts";

const workspace = await Deno.makeTempDir({ prefix: "rein_bench_tools_" });
const source = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};\n`).join("");
await Deno.mkdir(join(workspace, "src"));
for (let i = 0; i < 20; i++) await Deno.writeTextFile(join(workspace, `src/m${i}.ts`), source);
const context = callContext();
const protectedPaths = [join(workspace, ".rein")];
const read = createReadFileTool({ workspace });
const write = createWriteFileTool({ workspace, protectedPaths });
const edit = createEditFileTool({ workspace, protectedPaths });
const grep = createGrepTool({ workspace });

Deno.bench("read_file: a 40-line file", async () => {
  await read.run({ path: "src/m0.ts" }, context);
});

Deno.bench("write_file: replace a 40-line file", async () => {
  await write.run({ path: "src/w.ts", content: source }, context);
});

let flip = false;
Deno.bench("edit_file: one replacement in a 40-line file", async () => {
  flip = !flip;
  await edit.run(
    flip
      ? { path: "src/m1.ts", old_string: "value7 = 7", new_string: "value7 = 70" }
      : { path: "src/m1.ts", old_string: "value7 = 70", new_string: "value7 = 7" },
    context,
  );
});

Deno.bench("grep: 20 files, content mode", async () => {
  await grep.run({ pattern: "value1\\d", output_mode: "content" }, context);
});

globalThis.addEventListener("unload", () => Deno.removeSync(workspace, { recursive: true }));
