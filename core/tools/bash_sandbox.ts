/** What the bash tool runs in: the OS sandbox it is given and the directory it starts in. */

/**
 * An OS sandbox for bash (core/sandbox builds one on bwrap). Each call gets a sandbox of its own
 * whose end, or the agent's death, kills every process the call started, so a sandboxed call
 * needs no supervisor of its own.
 */
export interface BashSandbox {
  /** What commands may and may not do in it, as a line of the tool's description. */
  description: string;
  /**
   * The command line, program first, that runs `bash` with `bashArgs` in the sandbox, starting
   * in the workspace, with the host files `readable` readable at their own paths. Pure.
   */
  argv(bashArgs: readonly string[], readable: readonly string[]): string[];
  /**
   * Undoes, once a call has ended, what no mount could stop it leaving (a `.git/commondir`
   * that would hand git's configuration to a file of the command's choosing). Never throws.
   */
  afterCall?(): Promise<void>;
  /**
   * The same sandbox for an agent that works in `cwd`, a folder inside the workspace: commands
   * start there and may change only it (and the additional directories), with the same mounts
   * guarding git and rein's files.
   */
  placed?(cwd: string): BashSandbox;
}

/** What the bash tool needs from its surroundings. */
export interface BashToolDeps {
  /** Directory every command starts in. */
  workspace: string;
  /**
   * The sandbox commands run in; without one they run unconfined (secrets still removed). A
   * promise lets rein start while the sandbox is probed: the first call waits for it.
   */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
  /**
   * Whether to start unconfined bash under a `setpriv --pdeathsig` supervisor. Detected once, on
   * first unconfined use, when omitted.
   */
  usePdeathsig?: boolean;
}
