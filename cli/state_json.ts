import { readLog } from "../events/read_log.ts";
import { initialState } from "../core/state/state.ts";
import type { CatalogFold } from "../core/snapshots/mod.ts";
import type { CommandIo } from "./io.ts";
import { HeldOutput } from "./held_output.ts";
import { foldLogged } from "./fold.ts";
import { findSession } from "./session_choice.ts";
import { sweepSessions, type SweepSink } from "./session_sweep.ts";
import { readFrom, slicesSink, STATE_PROJECTIONS, SWEEP_BUDGET, unitsOf } from "./state_sweep.ts";

/** Stands for `sessions.byId` in the state's JSON until the sessions are written in its place. */
const SESSIONS_MARK = "\u0000sessions\u0000";
/** The parts of the state, in its order, that {@link stateJson} writes. */
const STATE_PARTS = "sessions,catalog,lastSeq,extensions";
/** Indentation of the members of `sessions.byId` in the state's JSON. */
const MEMBER_INDENT = "      ";

/**
 * `rein state --json`: the whole state (every session's view, the catalog, the last seq, every
 * mechanism's slice) as `JSON.stringify(state, null, 2)` prints it, or with `session` only that
 * session's view, written as it is folded: each session is folded from its start and written
 * when it ends (the sessions in between held as bytes), so memory holds a bounded number of
 * sessions rather than the whole state. `fold` is the catalog at the seq asked for.
 */
export async function stateJson(
  path: string,
  fold: CatalogFold,
  session: string | undefined,
  io: CommandIo,
): Promise<number> {
  const { catalog, lastSeq } = fold;
  const only = session === undefined ? undefined : findSession({ catalog }, session);
  const started = [...new Set(catalog.order)];
  const shown = only === undefined ? started : [only];
  const units = unitsOf(catalog.byId, started);
  const printed = units.map((unit) => unit.id).filter((id) => id === only || only === undefined);
  // The sessions are written in order of start, as the whole fold's object lists them, but for
  // integer-like ids (an object lists those first) or a session started twice: fold those whole;
  // and so for a state with parts this does not know how to write.
  const keys = Object.keys(Object.fromEntries(shown.map((id) => [id, 0])));
  const parts = Object.keys(initialState()).join();
  if (parts !== STATE_PARTS || keys.some((id, i) => id !== shown[i] || id !== printed[i])) {
    return await wholeStateJson(path, fold, only, io);
  }
  const slices = initialState(STATE_PROJECTIONS).extensions;
  const sliceKeys = Object.keys(slices);
  const slice = (key: string) => slices[key] as Record<string, unknown>;
  /**
   * By slice, the seq of the event that gave each session its entry: the order of the entries in
   * the whole fold's object.
   */
  const created = new Map(sliceKeys.map((key) => [key, new Map<string, number>()]));
  const out = io.stdout;
  let written = 0;
  /** Folds a session shown and holds its member of `sessions.byId`, written in its turn. */
  const viewSink = (id: string): SweepSink => {
    const state = initialState();
    state.extensions = slices;
    return {
      add: (event) => void foldLogged(state, event, path, STATE_PROJECTIONS),
      close() {
        const view = JSON.stringify(state.sessions.byId[id], null, 2);
        const held = new HeldOutput();
        held.write(
          `${MEMBER_INDENT}${JSON.stringify(id)}: ${view.replaceAll("\n", `\n${MEMBER_INDENT}`)}`,
        );
        const ready = held.ready(out);
        return {
          weight: ready.weight,
          emit() {
            out.write(written++ === 0 ? "{\n" : ",\n");
            return ready.emit();
          },
        };
      },
    };
  };
  const head = `{\n  "sessions": {\n    "byId": `;
  out.write(head);
  await sweepSessions(units, {
    read: (from) => readFrom(path, fold, from),
    budget: SWEEP_BUDGET,
    open: (unit) => {
      const sink = unit.id === only || only === undefined
        ? viewSink(unit.id)
        : slicesSink(slices, path);
      return {
        add(event) {
          const had = sliceKeys.filter((key) => slice(key)[event.session] !== undefined);
          sink.add(event);
          if (had.length === sliceKeys.length) return;
          for (const key of sliceKeys) {
            if (!had.includes(key) && slice(key)[event.session] !== undefined) {
              created.get(key)!.set(event.session, event.seq);
            }
          }
        },
        close: (inOrder) => sink.close(inOrder),
      };
    },
  });
  out.write(written === 0 ? "{}" : "\n    }");
  for (const key of sliceKeys) {
    const byCreation = [...created.get(key)!].sort((a, b) => a[1] - b[1]);
    const entries = slice(key);
    slices[key] = Object.fromEntries(byCreation.map(([id]) => [id, entries[id]]));
  }
  const skeleton = {
    sessions: { byId: SESSIONS_MARK, order: only === undefined ? catalog.order : [only] },
    catalog,
    lastSeq,
    extensions: slices,
  };
  const text = JSON.stringify(skeleton, null, 2);
  const mark = text.indexOf(JSON.stringify(SESSIONS_MARK));
  if (text.slice(0, mark) !== head) throw new Error("The state's JSON does not start as written");
  out.write(`${text.slice(mark + JSON.stringify(SESSIONS_MARK).length)}\n`);
  return 0;
}

/**
 * `rein state --json` from one fold of every event up to the catalog's last, held whole (with
 * the catalog as `fold` has it: the same, from its snapshot).
 */
async function wholeStateJson(
  path: string,
  fold: CatalogFold,
  only: string | undefined,
  io: CommandIo,
): Promise<number> {
  const state = initialState(STATE_PROJECTIONS);
  for await (const event of readLog(path, { upTo: fold.lastSeq })) {
    foldLogged(state, event, path, STATE_PROJECTIONS);
  }
  state.catalog = fold.catalog;
  const shown = only === undefined ? state : {
    ...state,
    sessions: { byId: { [only]: state.sessions.byId[only] }, order: [only] },
  };
  io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  return 0;
}
