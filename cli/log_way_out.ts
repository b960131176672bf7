import { LogCorruptionError, LogVersionError } from "../events/errors.ts";

/**
 * What to do about an error that stops rein at a damaged log, as lines to print after its
 * message, or undefined for any other error: see every problem (`rein log check`), keep the
 * events before the damage and set the rest aside (`rein log salvage`), or start another log
 * (`--log PATH`). For a log written by a newer rein: upgrade. Looks at `error.cause` too. Pure.
 */
export function logWayOut(error: unknown): string | undefined {
  const found = error instanceof Error && !isLogError(error) ? error.cause : error;
  if (found instanceof LogVersionError) {
    return `Upgrade rein to read this log (nothing in it is damaged), or start another log ` +
      `with --log PATH or another --workspace`;
  }
  if (!(found instanceof LogCorruptionError)) return undefined;
  const log = JSON.stringify(found.file);
  return [
    `rein stops at damage rather than guess what the log held. Ways out:`,
    `  rein log check ${log}      every problem of the log, with its line`,
    `  rein log salvage ${log}    keep the ${
      found.line - 1
    } event(s) before line ${found.line} as ` +
    `the log and set the rest aside in a file beside it (after a backup; nothing is lost)`,
    `  --log PATH (or another --workspace)    start with another log instead`,
  ].join("\n");
}

function isLogError(error: Error): boolean {
  return error instanceof LogCorruptionError || error instanceof LogVersionError;
}
