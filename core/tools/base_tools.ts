import { type BashSandbox, createBashTool } from "./bash.ts";
import { createEditFileTool } from "./edit_file.ts";
import { createGlobTool } from "./glob.ts";
import { createGrepTool } from "./grep.ts";
import { createReadFileTool } from "./read_file.ts";
import type { AnyTool } from "./tool.ts";
import { createWriteFileTool } from "./write_file.ts";

/** What the base tools need: the workspace they work in and are confined to. */
export interface BaseToolsDeps {
  workspace: string;
  /**
   * rein's own paths, which write_file and edit_file refuse to change: the event log and the
   * directory that holds it. read_file, glob and grep may still read them.
   */
  protectedPaths?: readonly string[];
  /** The OS sandbox bash runs in (core/sandbox's `resolveSandbox`); unconfined when absent. */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
}

/**
 * The six base tools in a stable order (bash, read_file, write_file, edit_file, glob, grep), all
 * working in `workspace`. Has no side effects until a tool runs.
 */
export function createBaseTools(deps: BaseToolsDeps): AnyTool[] {
  const { workspace, protectedPaths = [], sandbox } = deps;
  return [
    createBashTool({ workspace, ...(sandbox ? { sandbox } : {}) }),
    createReadFileTool({ workspace }),
    createWriteFileTool({ workspace, protectedPaths }),
    createEditFileTool({ workspace, protectedPaths }),
    createGlobTool({ workspace }),
    createGrepTool({ workspace }),
  ];
}
