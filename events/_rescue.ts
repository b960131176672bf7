import { createUniqueFile } from "./_log_files.ts";

/** Why a store stops, and what its rescue copy holds. */
export interface Rescue {
  /** The log file. */
  path: string;
  /** Time stamp for the rescue file's name (no `:`). */
  stamp: string;
  /** What happened, ending in `stopping so …`; whole sentences, the last without a period. */
  stopped: string;
  /** What the copy holds, a plural subject of "… are in": `the events of this run`. */
  holds: string;
  /** Where the events remain when the copy fails: `the file rein still holds open`. */
  otherwise: string;
  /** Write the copy into the (existing, empty) file at the given path. */
  save: (target: string) => Promise<void>;
  /** Recorded as the error's cause when the copy succeeds. */
  cause?: unknown;
}

/**
 * Save a rescue copy beside the log as `<path>.rescued-<stamp>` (`-2`, `-3`… when taken; an
 * existing file is never replaced) and return the error that stops the store: `stopped`, then
 * where the events are, or that saving them failed (with that failure as the cause). Never
 * throws.
 */
export async function rescueAndStop(rescue: Rescue): Promise<Error> {
  const { path, stamp, stopped, holds, otherwise, save, cause } = rescue;
  try {
    const target = await createUniqueFile(`${path}.rescued-${stamp}`);
    await save(target);
    const subject = `${holds.charAt(0).toUpperCase()}${holds.slice(1)}`;
    return new Error(`${stopped}. ${subject} are in "${target}"`, { cause });
  } catch (error) {
    return new Error(
      `${stopped}. Saving ${holds} beside it failed, so they are only in ${otherwise}`,
      { cause: error },
    );
  }
}

/**
 * The events with seq `first` (1 unless given: a store opened at a snapshot reads from later) to
 * `lastSeq`, named as the subject of a rescue message. Pure.
 */
export function eventsRead(lastSeq: number, first = 1): string {
  const range = lastSeq < first
    ? "none"
    : lastSeq === first
    ? `seq ${first}`
    : `seq ${first} to ${lastSeq}`;
  return `the events rein had read (${range})`;
}
