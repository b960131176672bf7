/**
 * Errors a caller of the event log may want to catch: a damaged log, and a log written by a newer
 * build of rein than this one.
 */

/**
 * A line of the log cannot be read as an event: bad JSON, a missing or ill-typed field, or a
 * `seq` that breaks the gapless 1, 2, 3… order. Never thrown for a torn (unterminated) last line,
 * which is an interrupted append and is repaired instead.
 */
export class LogCorruptionError extends Error {
  override name = "LogCorruptionError";
  /** The log file as it was given to the reader. */
  readonly file: string;
  /** 1-based line number of the damaged line. */
  readonly line: number;
  /** What is wrong with the line, e.g. `unexpected end of JSON input`. */
  readonly reason: string;

  constructor(file: string, line: number, reason: string, options?: ErrorOptions) {
    super(`Cannot read event at line ${line} of "${file}": ${reason}`, options);
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/**
 * A line of the log carries a schema version `v` greater than this build knows how to read:
 * the log was written by a newer rein. Upgrade rein rather than editing the log.
 */
export class LogVersionError extends Error {
  override name = "LogVersionError";
  /** The log file as it was given to the reader. */
  readonly file: string;
  /** 1-based line number of the first line with the newer version. */
  readonly line: number;
  /** The version found on that line. */
  readonly version: number;
  /** The newest version this build reads. */
  readonly supported: number;

  constructor(file: string, line: number, version: number, supported: number) {
    super(
      `Cannot read event at line ${line} of "${file}": written by a newer rein ` +
        `(event version ${version}, this build reads up to version ${supported})`,
    );
    this.file = file;
    this.line = line;
    this.version = version;
    this.supported = supported;
  }
}
