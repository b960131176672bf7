/** The `source` of the project instruction files (CLAUDE.md, AGENTS.md and their imports). */
export const INSTRUCTIONS_SOURCE = "memory";

/** The `source` of the agent's memory index (MEMORY.md). */
export const MEMORY_INDEX_SOURCE = "memory.index";

/**
 * Where the agent keeps its memory, relative to the workspace: inside rein's own directory, which
 * is kept out of git, so memory stays private to this person and checkout (as Claude Code's auto
 * memory does), and next to the log rather than among the settings in `.claude/`.
 */
export const DEFAULT_MEMORY_DIRECTORY = ".rein/memory";

/** The index file of the memory directory. */
export const MEMORY_INDEX_NAME = "MEMORY.md";

/** How many lines of the memory index go into the prompt. */
export const INDEX_PROMPT_LINES = 200;

/** At most this many bytes of one instruction file (or the index) are loaded. */
export const MAX_FILE_BYTES = 40_000;

/** At most this many bytes of instruction files in all are loaded. */
export const MAX_TOTAL_BYTES = 80_000;

/** Imports are followed at most this many levels deep. */
export const MAX_IMPORT_DEPTH = 5;

/** `bytes` as "12.3 KB" (1 KB = 1000 bytes) or "512 bytes", for notices and reports. Pure. */
export function kilobytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  return `${Math.round(bytes / 100) / 10} KB`;
}

/** The UTF-8 length of `text`. Pure. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
