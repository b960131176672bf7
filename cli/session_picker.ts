import { createInterface } from "node:readline/promises";
import process from "node:process";
import type { Catalog, CatalogEntry } from "../core/state/catalog.ts";
import type { CommandIo } from "./io.ts";

/** Sessions the picker offers, most recently active first. */
const OFFERED = 10;

/**
 * The lines of `rein --resume` without an id: the workspace's most recently active sessions,
 * numbered, with when they started, their rounds and first prompt. Pure.
 */
export function pickerLines(
  state: { catalog: Catalog },
): { ids: string[]; lines: string[] } {
  const views = state.catalog.order.map((id) => state.catalog.byId[id])
    .filter((entry): entry is CatalogEntry => entry !== undefined)
    .sort((a, b) => b.lastSeq - a.lastSeq)
    .slice(0, OFFERED);
  const lines = views.map((view, i) => {
    const prompt = (view.firstPrompt ?? "(no prompt)").replace(/\s+/g, " ");
    const when = view.startedAt.slice(0, 16).replace("T", " ");
    const shown = prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt;
    return `${String(i + 1).padStart(2)}. ${when}  ${view.id.slice(0, 8)}  ${shown}`;
  });
  return { ids: views.map((view) => view.id), lines };
}

/**
 * Ask which session to reopen, in a terminal. Resolves to its id. Throws, saying why, when the
 * log has none, standard input is not a terminal, or the answer names none of them.
 */
export async function pickSession(
  state: { catalog: Catalog },
  io: CommandIo,
): Promise<string> {
  const { ids, lines } = pickerLines(state);
  if (ids.length === 0) throw new Error("No session to resume in this workspace");
  if (!io.stdinIsTerminal) {
    throw new Error(
      "--resume without an id asks which session, which needs a terminal: pass an id",
    );
  }
  io.stdout.write(`${lines.join("\n")}\n`);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  try {
    const answer = (await rl.question(`Resume which session? [1-${ids.length}] `)).trim();
    const id = ids[Number(answer) - 1];
    if (!id || !/^\d+$/.test(answer)) throw new Error(`No session number "${answer}"`);
    return id;
  } finally {
    rl.close();
  }
}
