import type { Sink } from "./render/render.ts";

const encoder = new TextEncoder();

/** A sink that writes every byte to a Deno output stream (loops over partial writes). */
export function writerSink(stream: { writeSync(p: Uint8Array): number }): Sink {
  return {
    write(text: string) {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
    },
  };
}

/** Standard streams of a command, injectable for tests. */
export interface CommandIo {
  stdout: Sink;
  stderr: Sink;
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  stdinIsTerminal: boolean;
}

/** The process's real standard streams. */
export function processIo(): CommandIo {
  return {
    stdout: writerSink(Deno.stdout),
    stderr: writerSink(Deno.stderr),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    stdinIsTerminal: Deno.stdin.isTerminal(),
  };
}

/** Whether to colour a stream: a terminal, and NO_COLOR unset. */
export function useColor(isTerminal: boolean): boolean {
  return isTerminal && !Deno.env.get("NO_COLOR");
}

/** Read all of standard input as text. */
export async function readStdin(): Promise<string> {
  return await new Response(Deno.stdin.readable).text();
}

/** Standard input, line by line, as it arrives (for `--input-format stream-json`). */
export async function* stdinLines(): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    yield* lines;
  }
  if (rest) yield rest;
}
