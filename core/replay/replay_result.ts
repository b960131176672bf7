import type { Catalog } from "../state/catalog.ts";
import type { Envelope } from "../../events/event_types.ts";
import type { Mechanism } from "../mechanism.ts";

/** The first point where the re-driven loop and the recorded log disagree. */
export interface Divergence {
  /** seq of the recorded event that no longer matches; null when the log had ended. */
  seq: number | null;
  /** What the log recorded there (without seq/ts), or null. */
  recorded: unknown;
  /** What the replayed loop produced instead, or null. */
  replayed: unknown;
  reason: string;
}

/** The outcome of replaying one session. */
export interface ReplayResult {
  session: string;
  /** Recorded events the replay reproduced. */
  matched: number;
  divergence: Divergence | null;
  /**
   * The first recorded event whose payload does not fold (a projection throws on it: a damaged
   * line), met in the replay or, when it stopped short, in the session's events after; null
   * when every one folds.
   */
  damaged: { event: Envelope; error: unknown } | null;
}

/** Options of `replaySession`. */
export interface ReplayOptions {
  /** Mechanisms beyond rein's own, as the recording harness had them. */
  mechanisms?: readonly Mechanism[];
  /** Every reproduced event, for rendering. */
  onEvent?: (event: Envelope) => void;
  /** Recorded assistant text, as a live run would have streamed it. */
  onText?: (delta: string) => void;
  /**
   * The workspace-wide catalog as the log had it just before the session's first event (`seq`
   * is that event's seq − 1): what the session's process found there when it started (tasks and
   * cron jobs of earlier sessions). Without it the replay starts from an empty workspace.
   */
  start?: { catalog: Catalog; seq: number };
}
