import { type BashSandbox, createBashTool } from "./bash.ts";
import { createEditFileTool } from "./edit_file.ts";
import { createGlobTool } from "./glob.ts";
import { createGrepTool } from "./grep.ts";
import { createReadFileTool } from "./read_file.ts";
import type { ReadDenySource } from "./read_deny.ts";
import type { AnyTool } from "./tool.ts";
import { createWriteFileTool } from "./write_file.ts";

/** What the base tools need: the workspace they work in and are confined to. */
export interface BaseToolsDeps {
  workspace: string;
  /**
   * rein's own paths, which read_file, write_file and edit_file refuse: the event log and the
   * directories that hold rein's files (`.rein/`); glob and grep leave them out.
   */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` that stay open to the file tools (`.rein/memory/`). */
  openPaths?: readonly string[];
  /** The OS sandbox bash runs in (core/sandbox's `resolveSandbox`); unconfined when absent. */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
  /**
   * The files a session's deny rules keep the agent from reading, which glob and grep leave out
   * (core/permissions' `readDeniedJudge`); without it they show every file.
   */
  readDenied?: ReadDenySource;
}

/**
 * The six base tools in a stable order (bash, read_file, write_file, edit_file, glob, grep), all
 * working in `workspace`. Has no side effects until a tool runs.
 */
export function createBaseTools(deps: BaseToolsDeps): AnyTool[] {
  const { workspace, protectedPaths = [], openPaths = [], sandbox, readDenied } = deps;
  const hidden = readDenied ? { readDenied } : {};
  return [
    createBashTool({ workspace, ...(sandbox ? { sandbox } : {}) }),
    createReadFileTool({ workspace, protectedPaths, openPaths }),
    createWriteFileTool({ workspace, protectedPaths, openPaths }),
    createEditFileTool({ workspace, protectedPaths, openPaths }),
    createGlobTool({ workspace, protectedPaths, openPaths, ...hidden }),
    createGrepTool({ workspace, protectedPaths, openPaths, ...hidden }),
  ];
}
