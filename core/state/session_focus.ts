import type { Envelope } from "../../events/event_types.ts";
import type { Catalog } from "./catalog.ts";
import type { Projection } from "./projection.ts";
import { evolveFocused, type Focus, type State } from "./state.ts";

/** What a {@link SessionFocus} asks its loader for. */
export interface SessionsRequest {
  ids: readonly string[];
  upTo: number;
  projections: readonly Projection[];
  /** The catalog as of `upTo` (at least). */
  catalog: Catalog;
}

/**
 * Loads the full state (views and mechanism slices, as `evolveFocused` builds them) of the
 * sessions `ids` as of seq `upTo`, from the log and its snapshots; it may hold more sessions
 * (those they were forked from).
 */
export type SessionsLoader = (request: SessionsRequest) => Promise<State>;

/**
 * The sessions a state follows in full (its `Focus`), and bringing more into it: each loaded on
 * the side (from snapshots and the log) up to the state's last event, moved in, then brought up
 * to date with the events folded while it loaded. Its owner folds every event with
 * {@link SessionFocus.focused} and hands it to {@link SessionFocus.folded} after.
 */
export class SessionFocus {
  readonly #focused: Set<string> | "all";
  readonly #state: State;
  readonly #projections: readonly Projection[];
  readonly #load: SessionsLoader | undefined;
  readonly #changed: () => void;
  /** Sessions being focused (until loaded), and the events folded meanwhile (to fold again). */
  readonly #loading = new Map<string, Promise<void>>();
  readonly #arriving = new Set<Envelope[]>();

  /**
   * `focus`: every session (the default) or those named. `load` is needed to focus more unless
   * every session is in focus. `changed` is called each time this changes `state`.
   */
  constructor(
    state: State,
    projections: readonly Projection[],
    focus: "all" | readonly string[] | undefined,
    load: SessionsLoader | undefined,
    changed: () => void,
  ) {
    this.#state = state;
    this.#projections = projections;
    this.#focused = focus === undefined || focus === "all" ? "all" : new Set(focus);
    this.#load = load;
    this.#changed = changed;
  }

  /** The sessions followed in full now. */
  get focused(): Focus {
    return this.#focused;
  }

  /** Keep `event`, just folded into the state, for the sessions being loaded meanwhile. */
  folded(event: Envelope): void {
    for (const events of this.#arriving) events.push(event);
  }

  /** Follow a session that starts now (nothing of it is in the log yet) in full. */
  starting(id: string): void {
    if (this.#focused !== "all") this.#focused.add(id);
  }

  /**
   * Follow the sessions `ids` in full from now on (their views and mechanism slices, as of the
   * last event folded, then live). Throws for a session the catalog does not hold, and when
   * sessions must be loaded without a loader.
   */
  async focus(ids: readonly string[]): Promise<void> {
    const state = this.#state;
    for (const id of ids) {
      if (!state.catalog.byId[id]) throw new Error(`No session "${id}" in the log`);
    }
    const focused = this.#focused;
    if (focused === "all") return;
    const pending = ids.flatMap((id) => this.#loading.get(id) ?? []);
    const wanted = ids.filter((id) => !focused.has(id) && !this.#loading.has(id));
    if (wanted.length === 0) return void await Promise.all(pending);
    const load = this.#load;
    if (!load) throw new Error("This harness cannot load sessions into focus");
    const later: Envelope[] = [];
    const loaded = load({
      ids: wanted,
      upTo: state.lastSeq,
      projections: this.#projections,
      catalog: state.catalog,
    });
    const done = loaded.then(() => {}, () => {});
    for (const id of wanted) this.#loading.set(id, done);
    this.#arriving.add(later);
    try {
      await Promise.all(pending);
      this.#adopt(await loaded, later);
    } finally {
      this.#arriving.delete(later);
      for (const id of wanted) this.#loading.delete(id);
    }
  }

  /** Move the sessions of `loaded` not yet in focus in, then fold what came `later` for them. */
  #adopt(loaded: State, later: readonly Envelope[]): void {
    const focused = this.#focused as Set<string>;
    const added = loaded.sessions.order.filter((id) => !focused.has(id));
    adoptSessions(this.#state, loaded, added, this.#projections);
    this.#changed();
    for (const id of added) focused.add(id);
    const fresh = new Set(added);
    for (const event of later) {
      if (fresh.has(event.session)) {
        this.#changed();
        evolveFocused(this.#state, event, this.#projections);
      }
    }
  }
}

/**
 * Move the sessions `ids` of `loaded` (views and mechanism slices, by the projections' contract
 * of one entry per session) into `state`, keeping `state`'s order of start.
 */
function adoptSessions(
  state: State,
  loaded: State,
  ids: readonly string[],
  projections: readonly Projection[],
): void {
  for (const id of ids) {
    const view = loaded.sessions.byId[id];
    if (!view) continue;
    state.sessions.byId[id] = view;
    for (const { key } of projections) {
      const entry = (loaded.extensions[key] as Record<string, unknown> | undefined)?.[id];
      if (entry !== undefined) (state.extensions[key] as Record<string, unknown>)[id] = entry;
    }
  }
  const order = new Set(state.sessions.order);
  for (const id of ids) if (state.sessions.byId[id]) order.add(id);
  const started = (id: string) => state.catalog.order.indexOf(id);
  state.sessions.order = [...order].sort((a, b) => started(a) - started(b));
}
