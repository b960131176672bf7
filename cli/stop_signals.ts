/**
 * The signals a long-running command (`rein daemon`, `rein host`) stops on; injectable, so tests
 * can run such a command in-process and stop it.
 */
export interface StopSignals {
  add(listener: () => void): void;
  remove(listener: () => void): void;
}

/** SIGTERM and SIGINT (Ctrl-C) of this process. */
export const PROCESS_STOP_SIGNALS: StopSignals = {
  add(listener) {
    Deno.addSignalListener("SIGTERM", listener);
    Deno.addSignalListener("SIGINT", listener);
  },
  remove(listener) {
    Deno.removeSignalListener("SIGTERM", listener);
    Deno.removeSignalListener("SIGINT", listener);
  },
};
