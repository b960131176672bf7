import { dirname, join } from "../../events/posix_path.ts";
import { readLog } from "../../events/read_log.ts";
import type { State } from "../state/state.ts";
import { type LogPlace, readLogTail } from "./_log_tail.ts";
import {
  emptyTranscriptFold,
  transcriptEntries,
  type TranscriptFold,
  type TranscriptLine,
} from "./claude_transcript_fold.ts";

export { lineUuid, transcriptEntries, type TranscriptLine } from "./claude_transcript_fold.ts";

/** Where a session's Claude Code transcript is kept: beside the log, `transcripts/<id>.jsonl`. */
export function claudeTranscriptPath(logPath: string, session: string): string {
  return join(dirname(logPath), "transcripts", `${session}.jsonl`);
}

/**
 * Where a subagent's transcript (a sidechain) is kept, as Claude Code keeps it beside the
 * session's: `transcripts/<session>/subagents/agent-<id>.jsonl`, the id's characters outside
 * `[A-Za-z0-9._@:-]` written as `_`.
 */
export function claudeAgentTranscriptPath(logPath: string, session: string, agent: string): string {
  const name = `agent-${agent.replace(/[^A-Za-z0-9._@:-]/g, "_")}.jsonl`;
  return join(dirname(logPath), "transcripts", session, "subagents", name);
}

/** The transcript path hooks are given: the session's transcript beside the log (none: ""). */
export function hookTranscriptPath(options: { transcriptPath: string }, session: string): string {
  return options.transcriptPath === "" ? "" : claudeTranscriptPath(options.transcriptPath, session);
}

/** The subagent transcript path SubagentStop hooks are given (no transcripts: ""). */
export function hookAgentTranscriptPath(
  options: { transcriptPath: string },
  session: string,
  agent: string,
): string {
  return options.transcriptPath === ""
    ? ""
    : claudeAgentTranscriptPath(options.transcriptPath, session, agent);
}

const ENCODER = new TextEncoder();

/** Brings a session's transcript files up to date with the log before hooks read them. */
export type TranscriptWriter = (state: State, session: string) => Promise<string>;

/** How far a session's transcripts are written: the fold, where the log was read to, files begun. */
interface Written {
  fold: TranscriptFold;
  /** The end of the last line read (none: read from the first byte). */
  at?: LogPlace;
  /** Files this process has begun (written whole), with their size since: later lines append. */
  begun: Map<string, number>;
}

/**
 * A live writer of Claude Code transcripts beside the log at `logPath`: the session's (its main
 * agent's lines) and one per subagent (see {@link claudeAgentTranscriptPath}). It reads the log
 * itself from where it stopped, only the session's lines, folds them (`transcriptEntries`) and
 * appends the new lines; the first write of a file in this process writes it whole, and so does
 * one that finds a file changed under it (another process's writer). Nothing new
 * in `state` for the session: no read at all. A projection of the log written out, never read
 * back. Writes to one session are serialized. Gives the session transcript's absolute path; never
 * throws (a log or file that cannot be read or written leaves the files as they are, and they are
 * written whole the next time). Never used in replay (which writes no file).
 */
export function claudeTranscriptWriter(
  logPath: string,
  options: { version?: string; eventTypes?: readonly string[] } = {},
): TranscriptWriter {
  const written = new Map<string, Written>();
  const queues = new Map<string, Promise<unknown>>();
  return (state, session) => {
    const path = claudeTranscriptPath(logPath, session);
    const write = async (again = true): Promise<string> => {
      const last = state.sessions.byId[session]?.lastSeq;
      if (last === undefined) return path;
      let entry = written.get(session);
      if (entry !== undefined && entry.at !== undefined && entry.at.seq >= last) return path;
      entry ??= { fold: emptyTranscriptFold(session, options.version), begun: new Map() };
      written.set(session, entry);
      const files = new Map<string, TranscriptLine[]>();
      let end = entry.at;
      // A hook's look reads the few new lines in one piece; the first (or a long way) streams.
      const tail = entry.at && await readLogTail(logPath, entry.at, session, options.eventTypes);
      if (tail !== undefined) end = tail.end;
      const events = tail?.events ?? readLog(logPath, {
        sessions: [session],
        ...(entry.at === undefined ? {} : { start: entry.at }),
        ...(options.eventTypes === undefined ? {} : { eventTypes: options.eventTypes }),
        onEnd: (at) => end = at,
      });
      for await (const event of events) {
        for (const { agent, line } of transcriptEntries(entry.fold, event)) {
          const file = agent === entry.fold.mainAgent
            ? path
            : claudeAgentTranscriptPath(logPath, session, agent);
          const lines = files.get(file) ?? [];
          lines.push(line);
          files.set(file, lines);
        }
      }
      // A file another process wrote since (a teammate's rein): every file is written whole again.
      for (const file of files.keys()) {
        const size = entry.begun.get(file);
        if (size !== undefined && size !== await Deno.stat(file).then((f) => f.size, () => -1)) {
          written.delete(session);
          return again ? write(false) : path;
        }
      }
      for (const [file, lines] of files) {
        const bytes = ENCODER.encode(lines.map((line) => JSON.stringify(line) + "\n").join(""));
        const size = entry.begun.get(file);
        if (size === undefined) await Deno.mkdir(dirname(file), { recursive: true });
        await Deno.writeFile(file, bytes, { append: size !== undefined });
        entry.begun.set(file, (size ?? 0) + bytes.length);
      }
      if (end !== undefined) entry.at = end;
      return path;
    };
    // A transcript that cannot be written leaves the hooks to run without it (they are told its
    // path; the next write starts the files again).
    const safe = () =>
      write().catch(() => {
        written.delete(session);
        return path;
      });
    const queued = (queues.get(session) ?? Promise.resolve()).then(safe, safe);
    queues.set(session, queued);
    return queued;
  };
}
