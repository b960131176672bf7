import { sessionsCommand } from "../log_commands.ts";
import { replayCommand } from "../log_commands.ts";
import { stateCommand } from "../state_command.ts";
import { tasksCommand } from "../tasks_command.ts";
import { type Captured, captured } from "./captured_io.ts";

/**
 * The log as the MCP server reads it, each answer exactly what the CLI command prints: the
 * sessions (`rein sessions --json`), a session's state at a seq (`rein state --json --session
 * ID --at SEQ`), the task graph (`rein tasks --json`) and the verdict of `rein replay --verify
 * --quiet --session ID`. Each only reads the log: none appends to it or writes beside it.
 */
export class LogReader {
  constructor(readonly log: string) {}

  /** `rein sessions --json`. */
  sessions(): Promise<Captured> {
    return captured((io) => sessionsCommand(this.log, true, io));
  }

  /** `rein state --json --session ID [--at SEQ]`. */
  sessionState(session: string, at?: number): Promise<Captured> {
    return captured((io) => stateCommand(this.log, { json: true, session, at }, io));
  }

  /** `rein tasks --json [--at SEQ]`. */
  taskGraph(at?: number): Promise<Captured> {
    return captured((io) => tasksCommand(this.log, { json: true, at }, io));
  }

  /** `rein replay --verify --quiet --session ID`. */
  verify(session: string): Promise<Captured> {
    return captured((io) => replayCommand(this.log, { session, verify: true, quiet: true }, io));
  }

  /** The ids of the log's sessions, in their order (none when there is no log). */
  async sessionIds(): Promise<string[]> {
    const { code, stdout } = await this.sessions();
    if (code !== 0) return [];
    const rows: unknown = JSON.parse(stdout);
    if (!Array.isArray(rows)) return [];
    return rows.flatMap((row) =>
      typeof row === "object" && row !== null && typeof row.id === "string" ? [row.id] : []
    );
  }
}
