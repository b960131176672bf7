import { type BaseToolsDeps, createBaseTools } from "./base_tools.ts";
import { isInside } from "../files/is_inside.ts";
import type { BashSandbox } from "./bash_sandbox.ts";
import type { AnyTool } from "./tool.ts";

/**
 * The base tools of an agent that works in `cwd`, a folder inside `deps.workspace` (a subagent
 * given a folder, later a worktree): confined to that folder, relative paths starting there, bash
 * starting there and able to change only it (and the additional directories) in the sandbox.
 * Before each call a tool checks that the folder is still a folder whose real path lies in the
 * workspace: a symbolic link committed in its place, or swapped in by a command, stops every
 * call instead of moving the agent out of the workspace.
 */
export function placedBaseTools(deps: BaseToolsDeps, cwd: string): AnyTool[] {
  const { workspace, sandbox } = deps;
  const placedSandbox = sandbox === undefined ? {} : {
    sandbox: {
      then: <A, B>(
        onValue: (value: BashSandbox | undefined) => A | PromiseLike<A>,
        onError?: (error: unknown) => B | PromiseLike<B>,
      ) =>
        Promise.resolve(sandbox).then((found) => found?.placed ? found.placed(cwd) : found)
          .then(onValue, onError),
    },
  };
  return createBaseTools({ ...deps, workspace: cwd, ...placedSandbox }).map((tool) => ({
    ...tool,
    run: async (input, context) => {
      const problem = await placeProblem(cwd, workspace);
      return problem === undefined ? tool.run(input, context) : { content: problem, isError: true };
    },
  } as AnyTool));
}

/** Why an agent cannot work in `cwd` now, or undefined when it can. */
export async function placeProblem(cwd: string, workspace: string): Promise<string | undefined> {
  let real: string;
  let root: string;
  try {
    [real, root] = await Promise.all([Deno.realPath(cwd), Deno.realPath(workspace)]);
  } catch {
    return `The agent's folder "${cwd}" does not exist`;
  }
  if (!isInside(root, real)) {
    return `The agent's folder "${cwd}" leads out of the workspace (to "${real}"): ` +
      "it works nowhere else";
  }
  const info = await Deno.stat(real).catch(() => undefined);
  if (!info?.isDirectory) return `The agent's folder "${cwd}" is not a folder`;
  return undefined;
}
