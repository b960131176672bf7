/**
 * The full `rein` launcher. `deno task agent` and the installed command start `cli/launch.sh`,
 * which computes the same flags in the shell and execs Deno (no second Deno start-up); it hands
 * the cases it does not handle (loader variables, unusual model URLs, commas in paths) to this
 * one. It starts rein under narrowed Deno permissions, never `--allow-all`. It
 * computes the agent's flags from the command line (`--workspace`, `--log`), the environment
 * (`ANTHROPIC_BASE_URL`, HOME, TMPDIR, the variables set) and where it was started, runs
 * `Deno.execPath()` with them on the same standard streams, and exits with rein's code.
 * `--show-permissions` prints the flags, one a line, and exits. `--entry PATH`, first, starts
 * another module (the installed command starts the bundle so).
 *
 * It runs with `--allow-read --allow-env --allow-run` (to resolve paths, see every variable's name,
 * and start Deno, whose path a flag cannot name ahead of time: under npm or npx, the `deno` on the
 * PATH is not the binary) and no net or write access. It imports nothing but its own helpers,
 * so it adds little to start-up (bench/launcher_bench.ts).
 *
 * Signals: Ctrl-C reaches rein from the terminal itself (same process group), so the launcher
 * ignores SIGINT and waits for rein to finish; SIGTERM and SIGHUP sent to it are passed on, and
 * its death (SIGKILL) is passed on by the kernel where setpriv is there to ask for that.
 *
 * @module
 */
import { type LaunchPlan, planLaunch } from "./_launch_plan.ts";

/** Signals passed on to rein; SIGINT is not, as the terminal sends it to rein too. */
const FORWARDED: readonly Deno.Signal[] = ["SIGTERM", "SIGHUP"];

/** Start rein as planned from `argv`; resolves to the exit code for the launcher. */
export async function launch(argv: readonly string[]): Promise<number> {
  let plan: LaunchPlan;
  try {
    plan = planLaunch({
      argv,
      env: Deno.env.toObject(),
      cwd: Deno.cwd(),
      root: decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, ""),
      realPath,
      readText,
    });
  } catch (error) {
    console.error(`rein: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  for (const notice of plan.notices) console.error(notice);
  if (plan.showPermissions) {
    console.log(plan.permissions.join("\n"));
    return 0;
  }
  const running: { child?: Deno.ChildProcess } = {};
  // Listeners first: a signal between the spawn and them would otherwise end the launcher alone.
  Deno.addSignalListener("SIGINT", () => {});
  for (const signal of FORWARDED) {
    Deno.addSignalListener(signal, () => {
      try {
        running.child?.kill(signal);
      } catch {
        // rein has already exited.
      }
    });
  }
  running.child = start(plan.denoArgs);
  // Killed by a signal, rein's code is 128 + its number, as a shell reports it.
  return (await running.child.status).code;
}

/**
 * Start `deno` with `args`, under `setpriv --pdeathsig SIGKILL` where there is one: killing the
 * launcher (even with SIGKILL, which it cannot pass on) then kills rein as well, as if rein had
 * been killed, instead of leaving it running with no one waiting for it. setpriv execs Deno, so
 * the child's pid is rein's.
 */
function start(args: readonly string[]): Deno.ChildProcess {
  const deno = Deno.execPath();
  const stdio = { stdin: "inherit", stdout: "inherit", stderr: "inherit" } as const;
  try {
    return new Deno.Command("setpriv", {
      args: ["--pdeathsig", "SIGKILL", "--", deno, ...args],
      ...stdio,
    }).spawn();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return new Deno.Command(deno, { args: [...args], ...stdio }).spawn();
  }
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  Deno.exit(await launch(Deno.args));
}
