/**
 * Fails when a module imports against the layer order `events/` ← `core/` ← `cli/`:
 * nothing in events/ imports core/ or cli/, nothing in core/ imports cli/.
 * Run by `deno task check`; also exported for the test suite.
 */
import { join, relative, resolve } from "node:path";

const LAYERS = ["events", "core", "cli"] as const;

/** Every import that breaks the layer order, as "file: imports target". */
export async function layerViolations(root: string): Promise<string[]> {
  const violations: string[] = [];
  for (const [rank, layer] of LAYERS.entries()) {
    const forbidden = LAYERS.slice(rank + 1);
    for await (const file of walk(join(root, layer))) {
      const text = await Deno.readTextFile(file);
      for (
        const match of text.matchAll(
          /(?:import|export)[^"']*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
        )
      ) {
        const specifier = match[1] ?? match[2] ?? "";
        if (!specifier.startsWith(".")) continue;
        const target = relative(root, resolve(file, "..", specifier));
        const targetLayer = target.split("/")[0];
        if (forbidden.some((f) => f === targetLayer)) {
          violations.push(
            `${
              relative(root, file)
            }: imports ${target} (${layer}/ must not depend on ${targetLayer}/)`,
          );
        }
      }
    }
  }
  return violations;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

if (import.meta.main) {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  const violations = await layerViolations(root);
  if (violations.length > 0) {
    console.error(`Layer order violated (events/ ← core/ ← cli/):\n  ${violations.join("\n  ")}`);
    Deno.exit(1);
  }
}
