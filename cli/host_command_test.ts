import assert from "node:assert/strict";
import { hostCommand } from "./host_command.ts";
import type { CommandIo } from "./io.ts";

function envOf(vars: Record<string, string>) {
  return { get: (name: string) => vars[name], toObject: () => ({ ...vars }) };
}

const io = {
  stdout: { write: () => {} },
  stderr: { write: () => {} },
  stdoutIsTerminal: false,
} as unknown as CommandIo;

Deno.test("rein host: without a shared store (a JSONL file) it refuses to start", async () => {
  await assert.rejects(
    () => hostCommand({ workspace: "/tmp" }, envOf({ ANTHROPIC_API_KEY: "sk-test-key" }), io),
    /^Error: Cannot host teammates on a log one machine has: give rein host the log several machines share \(--store postgres:\/\/…, or REIN_STORE\)$/,
  );
});

Deno.test("rein host: a name that is no host name is refused before anything opens", async () => {
  for (const name of ["bad name", "-flag", "a/b", ""]) {
    await assert.rejects(
      () =>
        hostCommand(
          { store: "postgres://u@127.0.0.1:1/db", name },
          envOf({ ANTHROPIC_API_KEY: "sk-test-key" }),
          io,
        ),
      new RegExp(`^Error: Cannot host as "${name.replace("/", "\\/")}": a host's name is`),
    );
  }
});
