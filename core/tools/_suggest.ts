import { basename, dirname, extname, join } from "node:path";

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

/** Levenshtein distance. Pure. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
