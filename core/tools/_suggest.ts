import { basename, dirname, extname, join } from "../../events/posix_path.ts";

const MAX_SUGGESTIONS = 3;

/**
 * Words a missing file for the model: `File not found: src/x.ts. Did you mean src/y.ts?`,
 * suggesting similarly named entries of the same directory when there are any. Never throws.
 */
export async function fileNotFoundMessage(
  absolutePath: string,
  displayPath: string,
): Promise<string> {
  const names = await listNames(dirname(absolutePath));
  if (names === null) {
    return `File not found: ${displayPath} (directory "${dirname(displayPath)}" does not exist)`;
  }
  const similar = similarNames(basename(absolutePath), names);
  if (similar.length === 0) return `File not found: ${displayPath}`;
  const shown = similar.map((name) => join(dirname(displayPath), name));
  return `File not found: ${displayPath}. Did you mean ${joinOr(shown)}?`;
}

/** Names from `candidates` that look like a typo of `wanted`, closest first. Pure. */
export function similarNames(wanted: string, candidates: readonly string[]): string[] {
  const target = wanted.toLowerCase();
  const stem = stemOf(target);
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    const distance = editDistance(target, lower);
    const sameStem = stem !== "" && stemOf(lower) === stem;
    if (distance <= Math.max(1, Math.floor(target.length / 4)) || sameStem) {
      scored.push({ name, score: sameStem ? Math.min(distance, 1) : distance });
    }
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
}

function stemOf(name: string): string {
  return name.slice(0, name.length - extname(name).length);
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

async function listNames(dir: string): Promise<string[] | null> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    return names;
  } catch {
    return null;
  }
}

/** Edit distance counting insertions, deletions, substitutions and adjacent swaps. Pure. */
function editDistance(a: string, b: string): number {
  const rows = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}
