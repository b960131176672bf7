/**
 * Fails when a relative import breaks the layer order.
 * - Layers: `events/` ← `core/` ← `cli/`; top-level files such as mod.ts sit at the cli level.
 * - Production code does not import `node:path` (events/posix_path.ts answers alike, cheaper).
 * - testing/ may use events/, core/, cli/; production code (non-`_test.ts` files in the layers
 *   and top-level files) must not use testing/, tests/ or bench/; only tests/ may use tests/.
 * - Ranks in core/: effects ← projections ← state ← kernel (loop, request, tools, settings, files,
 *   mechanism.ts) ← mechanisms (other folders; own folder plus allowed pairs) ← top (runner,
 *   replay, harness.ts, mod.ts). Projections import only events/, their folder's projections and
 *   the Projection interface.
 * - No import cycle among production files (a type import counts), and none among the kernel's
 *   units (its folders and mechanism.ts), which depend on each other one way.
 * - Each folder of core/ that builds a mechanism has a mod.ts and a README.md.
 * Run by `deno task check`; also exported for the test suite.
 */
import { basename, dirname, join, relative, resolve } from "node:path";

const LAYERS = ["events", "core", "cli"];
const SKIPPED = ["tests/golden", "node_modules", "dist", ".rein", ".git"];
const RANKS = ["effects", "projection", "state", "kernel", "mechanism", "top"];
const KERNEL = ["loop", "request", "tools", "settings", "files", "mechanism.ts"];
const TOP = ["runner", "replay", "harness.ts", "feature_gate.ts", "mod.ts"];
/** Mechanism folders that may import another mechanism folder. */
const MECHANISM_PAIRS = [
  "protocols → teams",
  "protocols → mail",
  "autonomy → teams",
  "autonomy → team",
  "autonomy → tasks",
  "autonomy → mail",
  "autonomy → worktrees",
  "autonomy → hooks",
  "autonomy → protocols",
  "worktrees → tasks",
  "worktrees → agents",
  "worktrees → environment",
  "team → agents",
  "team → mail",
  "team → models",
  "team_questions → team",
  "team_questions → mail",
  "team_questions → protocols",
  "team_questions → permissions",
  "recovery → models",
  "agents → models",
  "mcp → agents",
  "permissions → hooks",
  "compaction → models",
];
const IMPORT =
  /\b(?:import|export)[^"';]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\bimport\s+["']([^"']+)["']/g;

/** Where a core/ file sits: its rank and the folder or file that names it. */
interface CoreRank {
  rank: number;
  unit: string;
}

/** Every import that breaks the layer order, as "file: imports target (rule)", sorted. */
export async function layerViolations(root: string): Promise<string[]> {
  const violations: string[] = [];
  for await (const path of walk(root, root)) {
    const file = relative(root, path);
    if (file.startsWith("core/") && !coreRank(file)) {
      violations.push(
        `${file}: is not in a rank (put it in a folder of core/ or name it in the layer check)`,
      );
    }
    for (const match of (await Deno.readTextFile(path)).matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      if (specifier === "node:path" && isProduction(file)) {
        violations.push(
          `${file}: imports node:path (production code uses events/posix_path.ts: Node's path ` +
            "module costs every start its load)",
        );
      }
      if (!specifier.startsWith(".")) continue;
      const target = relative(root, resolve(dirname(path), specifier));
      if (target.startsWith("..")) continue;
      const reason = violation(file, target);
      if (reason) violations.push(`${file}: imports ${target} (${reason})`);
    }
  }
  return violations.sort();
}

/** The rule that `file` importing `target` breaks, if any (both relative to the root). */
function violation(file: string, target: string): string | undefined {
  const from = area(file);
  const to = area(target);
  if (from === "tests") return undefined;
  if (to === "tests") return `${who(file)} must not depend on tests/`;
  if (from === "bench" || !isLayered(from)) return undefined;
  if (to === "bench") return `${who(file)} must not depend on bench/`;
  if (to === "testing") {
    return from === "testing" || isTest(file)
      ? undefined
      : `${who(file)} must not depend on testing/`;
  }
  if (from === "testing" || !isLayered(to)) return undefined;
  if (layer(to) > layer(from)) {
    return `${from}/ must not depend on ${to === "" ? `top-level ${target}` : `${to}/`}`;
  }
  return from === "core" && to === "core" ? coreViolation(file, target) : undefined;
}

/** The rank rule inside core/ that `file` importing `target` breaks, if any. */
function coreViolation(file: string, target: string): string | undefined {
  const from = coreRank(file);
  const to = coreRank(target);
  if (!from || !to || allowedInCore(from, to, file, target)) return undefined;
  return `${from.unit} (${RANKS[from.rank]}) must not depend on ${to.unit} (${RANKS[to.rank]})`;
}

function allowedInCore(from: CoreRank, to: CoreRank, file: string, target: string): boolean {
  const sameFolder = folder(file) === folder(target);
  switch (RANKS[from.rank]) {
    case "effects":
      return to.rank === 0;
    case "projection":
      // A projection may name the interface it implements, and nothing else outside its folder.
      return (to.rank === 1 && sameFolder) || target === "core/state/projection.ts";
    case "mechanism":
      return to.rank <= 3 || sameFolder ||
        (to.rank === 4 && MECHANISM_PAIRS.includes(`${folder(file)} → ${folder(target)}`));
    case "top":
      return true;
    default:
      return to.rank <= from.rank;
  }
}

/** The rank of a path under core/, or undefined for a stray file directly in core/. */
function coreRank(path: string): CoreRank | undefined {
  const name = folder(path);
  const isFile = path.split("/").length === 2;
  const unit = isFile ? path : `core/${name}/`;
  if (isFile && !KERNEL.includes(name) && !TOP.includes(name)) return undefined;
  if (name === "effects") return { rank: 0, unit };
  if (name === "state") return { rank: 2, unit };
  if (KERNEL.includes(name)) return { rank: 3, unit };
  if (TOP.includes(name)) return { rank: 5, unit };
  const file = basename(path);
  if (file === "projection.ts" || file.endsWith("_projection.ts")) return { rank: 1, unit: path };
  return { rank: 4, unit };
}

/** The second path segment: the folder (or file) directly under core/. */
function folder(path: string): string {
  return path.split("/")[1] ?? "";
}

/** The top-level directory of a path, or "" for a top-level file. */
function area(path: string): string {
  const parts = path.split("/");
  return parts.length === 1 ? "" : parts[0] ?? "";
}

/** Top-level files count as the cli layer. */
function layer(area: string): number {
  return area === "" ? LAYERS.indexOf("cli") : LAYERS.indexOf(area);
}

/** events/, core/, cli/, testing/ and top-level files follow the layer order. */
function isLayered(area: string): boolean {
  return area === "" || area === "testing" || LAYERS.includes(area);
}

/** Whether `file` is production code: in events/, core/ or cli/ and not a test. */
function isProduction(file: string): boolean {
  return ["events", "core", "cli"].includes(area(file)) && !file.endsWith("_test.ts");
}

function isTest(file: string): boolean {
  return LAYERS.includes(area(file)) && file.endsWith("_test.ts");
}

/** How a rule names the importing side. */
function who(file: string): string {
  const from = area(file);
  if (isTest(file)) return `${from}/ test files`;
  return from === "" || LAYERS.includes(from) ? "production code" : `${from}/`;
}

async function* walk(root: string, dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (!SKIPPED.includes(entry.name) && !SKIPPED.includes(relative(root, path))) {
        yield* walk(root, path);
      }
    } else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

/**
 * Every import cycle among the production files of events/, core/, cli/ and the top level (test
 * files left out; `import type` counts: a type is a dependency too), as one line per strongly
 * connected set of files: a shortest cycle through its first file, then how many files the set
 * holds. Sorted; empty when the imports form no cycle.
 */
export async function importCycles(root: string): Promise<string[]> {
  const edges = await productionImports(root);
  const cycles: string[] = [];
  for (const group of stronglyConnected(edges)) {
    const first = group[0] as string;
    const selfImport = edges.get(first)?.includes(first) ?? false;
    if (group.length === 1 && !selfImport) continue;
    const members = new Set(group);
    const path = shortestCycle(first, edges, members);
    const size = group.length === 1 ? "" : ` (${group.length} files in the cycle)`;
    cycles.push(`import cycle: ${path.join(" → ")}${size}`);
  }
  return cycles.sort();
}

/** A file that builds a mechanism: a function returning one, or a constant holding one. */
const BUILDS_MECHANISM = /\)\s*:\s*Mechanism\s*\{|:\s*Mechanism\s*=/;

/**
 * Each folder of core/ that builds a mechanism (see `Mechanism`) without a `mod.ts` (its public
 * surface) or a `README.md` (its events, tools, stages and settings), as "folder: lacks file".
 * Sorted; empty when every one has both.
 */
export async function mechanismFolderProblems(root: string): Promise<string[]> {
  const problems: string[] = [];
  for await (const entry of Deno.readDir(join(root, "core"))) {
    if (!entry.isDirectory) continue;
    const dir = join(root, "core", entry.name);
    let builds = false;
    for await (const file of Deno.readDir(dir)) {
      if (!file.isFile || !file.name.endsWith(".ts") || file.name.endsWith("_test.ts")) continue;
      if (BUILDS_MECHANISM.test(await Deno.readTextFile(join(dir, file.name)))) builds = true;
    }
    if (!builds) continue;
    for (const name of ["mod.ts", "README.md"]) {
      const present = await Deno.stat(join(dir, name)).then((s) => s.isFile, () => false);
      if (!present) problems.push(`core/${entry.name}/: lacks ${name}`);
    }
  }
  return problems.sort();
}

/**
 * Every cycle among the kernel's units (core/loop/, core/request/, core/tools/, core/settings/,
 * core/files/ and core/mechanism.ts): the kernel's folders depend on each other one way, so that
 * no cycle of files can close through them later. One line per cycle, with a file import for
 * each of its steps. Sorted; empty when there is none.
 */
export async function kernelCycles(root: string): Promise<string[]> {
  const files = await productionImports(root);
  /** Between kernel units: the first file import (in sorted order) that makes each edge. */
  const through = new Map<string, string>();
  const edges = new Map<string, string[]>();
  for (const [file, targets] of files) {
    const from = kernelUnit(file);
    if (from === undefined) continue;
    if (!edges.has(from)) edges.set(from, []);
    for (const target of targets) {
      const to = kernelUnit(target);
      if (to === undefined || to === from) continue;
      const key = `${from}\n${to}`;
      if (through.has(key)) continue;
      through.set(key, `${file} → ${target}`);
      edges.get(from)?.push(to);
      if (!edges.has(to)) edges.set(to, []);
    }
  }
  for (const targets of edges.values()) targets.sort();
  const cycles: string[] = [];
  for (const group of stronglyConnected(edges)) {
    if (group.length === 1) continue;
    const path = shortestCycle(group[0] as string, edges, new Set(group));
    const steps = path.slice(1).map((to, i) => through.get(`${path[i]}\n${to}`));
    cycles.push(`import cycle between kernel units: ${path.join(" → ")} (${steps.join("; ")})`);
  }
  return cycles.sort();
}

/** The kernel unit of a path under core/ (its folder, or core/mechanism.ts), if it is in one. */
function kernelUnit(path: string): string | undefined {
  if (!path.startsWith("core/")) return undefined;
  const rank = coreRank(path);
  return rank && RANKS[rank.rank] === "kernel" ? rank.unit : undefined;
}

/**
 * The relative imports of each production file of events/, core/, cli/ and the top level (test
 * files and testing/ left out), by file, each list sorted.
 */
async function productionImports(root: string): Promise<Map<string, string[]>> {
  const edges = new Map<string, string[]>();
  for await (const path of walk(root, root)) {
    const file = relative(root, path);
    if (!isLayered(area(file)) || area(file) === "testing" || file.endsWith("_test.ts")) continue;
    const targets = new Set<string>();
    for (const match of (await Deno.readTextFile(path)).matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      if (!specifier.startsWith(".")) continue;
      const target = relative(root, resolve(dirname(path), specifier));
      if (!target.startsWith("..")) targets.add(target);
    }
    edges.set(file, [...targets].sort());
  }
  return edges;
}

/** The strongly connected sets of the graph `edges` (Tarjan's algorithm), each sorted. */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    groups.push(group.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** A shortest path from `start` back to itself inside `members` (breadth first). */
function shortestCycle(
  start: string,
  edges: ReadonlyMap<string, readonly string[]>,
  members: ReadonlySet<string>,
): string[] {
  const before = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const target of edges.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined;) {
          path.splice(1, 0, at);
          at = before.get(at);
        }
        return [...path, start];
      }
      if (!before.has(target)) {
        before.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

if (import.meta.main) {
  const root = resolve(new URL(".", import.meta.url).pathname, "..");
  const violations = await layerViolations(root);
  const cycles = [...await importCycles(root), ...await kernelCycles(root)];
  if (violations.length > 0) {
    console.error(`Layer order violated:\n  ${violations.join("\n  ")}`);
  }
  if (cycles.length > 0) {
    console.error(`Import cycles (break each; a type import counts):\n  ${cycles.join("\n  ")}`);
  }
  const folders = await mechanismFolderProblems(root);
  if (folders.length > 0) {
    console.error(`Mechanism folders without their surface:\n  ${folders.join("\n  ")}`);
  }
  if (violations.length > 0 || cycles.length > 0 || folders.length > 0) Deno.exit(1);
}
