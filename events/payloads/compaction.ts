import type { EventTable } from "./_payload.ts";

/** What started a compaction: the threshold, `/compact`, the model's `compact` tool, or an API error. */
export type CompactionTrigger = "auto" | "manual" | "tool" | "reactive";

/**
 * A compaction began (s08): the conversation before message `cutIndex` (first recorded at
 * `cutSeq`) is to be summarised by a model call (recorded with `purpose: "compact"`), and the
 * request goes on from the summary and the messages from the cut on. Flushed before the summary
 * is asked for, so a crash leaves an open compaction that a resume completes once.
 */
export interface CompactionStarted {
  trigger: CompactionTrigger;
  /** Index in the agent's projected messages of the first message kept. */
  cutIndex: number;
  /** seq of the event that began the first message kept (0 for a forked history). */
  cutSeq: number;
  /** Estimated tokens of the request before compaction. */
  tokensBefore: number;
  /** What the person (`/compact FOCUS`) or the model (the tool's `focus`) asked to keep. */
  focus?: string;
  /** Instructions PreCompact hooks added for the summary. */
  instructions?: string[];
}

/** A compaction ended: the summary replaces the messages before the cut. */
export interface CompactionCompleted {
  trigger: CompactionTrigger;
  cutIndex: number;
  cutSeq: number;
  /** The model's summary of the conversation before the cut. */
  summary: string;
  tokensBefore: number;
  /** Estimated tokens of the request after compaction. */
  tokensAfter: number;
}

/** A compaction could not be done (the summary call failed, a PreCompact hook blocked it). */
export interface CompactionFailed {
  trigger: CompactionTrigger;
  message: string;
  /** The focus asked for, as in {@link CompactionStarted}. */
  focus?: string;
}

/** Layer 1: tool results too large for the context, kept whole in a file; the model gets a preview. */
export interface ContextSpilled {
  results: SpilledResult[];
}

/** One spilled tool result. */
export interface SpilledResult {
  callId: string;
  /** The file holding the whole output, relative to the workspace. */
  path: string;
  /** Characters of the whole output. */
  chars: number;
  /** What the model reads instead: the head of the output and where the rest is. */
  preview: string;
}

/** Layer 2: the oldest middle messages were cut out, replaced by one marker. */
export interface ContextSnipped {
  /** Index of the first message cut, and of the first message kept after them. */
  from: number;
  to: number;
  /** seq of the first event of the first and of the last message cut. */
  fromSeq: number;
  toSeq: number;
  /** The text put in place of the messages cut. */
  marker: string;
  tokensFreed: number;
}

/** Layer 3: old tool results replaced by a short placeholder. */
export interface ContextCleared {
  results: { callId: string; text: string }[];
  tokensFreed: number;
}

/** Context compaction (s08). */
export interface CompactionEvents {
  "compaction.started": CompactionStarted;
  "compaction.completed": CompactionCompleted;
  "compaction.failed": CompactionFailed;
  "context.spilled": ContextSpilled;
  "context.snipped": ContextSnipped;
  "context.cleared": ContextCleared;
}

/** The event types of CompactionEvents, for validation on read. */
export const COMPACTION_EVENTS: EventTable<CompactionEvents> = {
  "compaction.started": true,
  "compaction.completed": true,
  "compaction.failed": true,
  "context.spilled": true,
  "context.snipped": true,
  "context.cleared": true,
};
