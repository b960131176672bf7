import { dirname, join } from "node:path";
import { initialState } from "../core/state/state.ts";
import type { ToolCallContext } from "../core/tools/tool.ts";

/** A temporary directory removed on dispose. Test helper. */
export interface TempDir extends AsyncDisposable {
  path: string;
  /** Writes files given as `{relativePath: content}`, creating directories. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
}

/** Creates a temporary directory for a test; use with `await using`. */
export async function tempDir(prefix = "rein_tools_"): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path,
    async write(files) {
      for (const [name, content] of Object.entries(files)) {
        const file = join(path, name);
        await Deno.mkdir(dirname(file), { recursive: true });
        if (typeof content === "string") await Deno.writeTextFile(file, content);
        else await Deno.writeFile(file, content);
      }
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

/** A call context whose signal never aborts. */
export function callContext(signal: AbortSignal = new AbortController().signal): ToolCallContext {
  return {
    signal,
    session: "s1",
    agent: "lead",
    callId: "toolu_test",
    cwd: "/",
    view: () => initialState(),
  };
}

/** Whether `pid` is a live process (zombies awaiting their reaper count as dead). Linux only. */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls until `pid` is dead or `ms` have passed; returns whether it died. */
export async function waitForDeath(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !(await isAlive(pid));
}

/** Reads a pid a test command wrote to `file`, waiting for it to appear. */
export async function readPid(file: string, ms = 5000): Promise<number> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const text = (await Deno.readTextFile(file)).trim();
      if (text !== "") return Number(text);
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`No pid was written to "${file}" within ${ms} ms`);
}

/** SIGKILLs every process whose working directory is `dir` (a test's leftovers). */
export function killProcessesIn(dir: string): void {
  for (const { pid } of processesIn(dir)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Processes whose working directory is `dir` (Linux /proc), with their command lines. */
export function processesIn(dir: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      if (Deno.readLinkSync(`/proc/${entry.name}/cwd`) !== dir) continue;
      const command = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      found.push({ pid: Number(entry.name), command: command.trim() });
    } catch {
      // Gone meanwhile, or not ours to inspect.
    }
  }
  return found;
}
