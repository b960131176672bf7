/**
 * Builds the bundle `deno task install` installs: `deno task build` runs this into `dist/`.
 *
 *     deno run --allow-read --allow-write --allow-run --allow-env cli/build.ts [OUT_DIR]
 *
 * `deno bundle` splits rein into chunks, one per part a start may not need (the REPL, the daemon,
 * the log commands, the SDK), each loaded by a dynamic `import("./chunk.js")`. Deno reads and
 * parses every module such a literal names as soon as the program starts, used or not (about 30
 * ms of a start on the machine of bench/agent_bench.ts), so the build then writes each of those
 * imports as `import(String("./chunk.js"))`: the same module, resolved the same way, loaded only
 * when the import runs. A dynamic import Deno has not seen at start needs read access to its file:
 * the launcher lets the agent read the bundle's folder.
 *
 * A CommonJS package that calls `require` (the PostgreSQL client does, for Node's modules) makes
 * the bundler put `createRequire` from `node:module` in the chunk of helpers every chunk imports,
 * so every start would load Node's module system (and its console, a few tens of ms) for a
 * `require` that only a `--store postgres://…` run ever calls. The build makes that `require`
 * take `node:module` on its first call instead ({@link requireOnUse}).
 *
 * @module
 */
import { join } from "../events/posix_path.ts";

/** `deno bundle`'s arguments, before `--outdir`. */
const BUNDLE_ARGS = ["bundle", "--platform", "deno", "--minify", "--quiet", "--code-splitting"];

const ROOT = new URL("../", import.meta.url);

/**
 * Bundles cli/main.ts into `outDir` (emptied first) and makes the chunks' dynamic imports
 * load on use; resolves to the path of the bundle's entry. Throws when bundling fails, or when
 * `signal` aborts (which kills `deno bundle`).
 */
export async function buildBundle(outDir: string, signal?: AbortSignal): Promise<string> {
  await Deno.remove(outDir, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  const built = await new Deno.Command(Deno.execPath(), {
    args: [...BUNDLE_ARGS, "--outdir", outDir, "cli/main.ts"],
    cwd: ROOT,
    stderr: "piped",
    ...(signal === undefined ? {} : { signal }),
  }).output();
  if (!built.success) {
    throw new Error(`Bundling failed: ${new TextDecoder().decode(built.stderr)}`);
  }
  const chunks = new Set<string>();
  for await (const entry of Deno.readDir(outDir)) {
    if (entry.isFile && entry.name.endsWith(".js")) chunks.add(entry.name);
  }
  for (const name of chunks) {
    const path = join(outDir, name);
    const text = await Deno.readTextFile(path);
    const lazy = requireOnUse(loadOnUse(text, chunks));
    if (lazy !== text) await Deno.writeTextFile(path, lazy);
  }
  return join(outDir, "main.js");
}

/**
 * `text` with every `import("./NAME")` of one of `chunks` written `import(String("./NAME"))`,
 * which Deno does not load at start. Pure.
 */
export function loadOnUse(text: string, chunks: ReadonlySet<string>): string {
  return text.replace(
    /import\("\.\/([\w.-]+\.js)"\)/g,
    (whole, name: string) => chunks.has(name) ? `import(String("./${name}"))` : whole,
  );
}

/**
 * `text` with the bundler's eager `var R=createRequire(import.meta.url)` (imported from
 * `node:module`) written as a function that makes that `require` on its first call, through
 * `process.getBuiltinModule`, so loading the chunk loads no Node module. Pure.
 */
export function requireOnUse(text: string): string {
  return text.replace(
    /import\s*\{\s*createRequire as (\w+)\s*\}\s*from\s*"node:module";\s*var ([\w$]+)\s*=\s*\1\(import\.meta\.url\);/,
    (_whole, _name: string, required: string) =>
      `var ${required}__made;var ${required}=(id)=>(${required}__made??=globalThis.process` +
      `.getBuiltinModule("node:module").createRequire(import.meta.url))(id);`,
  );
}

if (import.meta.main) {
  const out = Deno.args[0] ?? "dist";
  await buildBundle(out.startsWith("/") ? out : join(Deno.cwd(), out));
}
