import type { PendingCall } from "../state/conversation.ts";
import type { AnyTool } from "./tool.ts";
import { validateToolInput } from "./schema.ts";

/** The outcome of one tool call, as recorded in `tool.completed`. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  durationMs: number;
  outcome?: "cancelled";
}

/**
 * Runs the model's tool calls. Implementations: {@link createToolExecutor} (live) and replay's
 * recorded executor. `execute` does not throw for tool failures; they come back as `isError`.
 */
export interface ToolExecutor {
  execute(call: PendingCall, signal: AbortSignal): Promise<ToolOutcome>;
}

/**
 * The live executor: look the tool up, validate the input against its schema, run it, time it.
 * `monotonicMs` is the injected clock for durations.
 */
export function createToolExecutor(
  tools: readonly AnyTool[],
  monotonicMs: () => number,
): ToolExecutor {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return {
    async execute(call, signal) {
      const started = monotonicMs();
      const finish = (content: string, isError: boolean): ToolOutcome => ({
        content,
        isError,
        durationMs: Math.round(monotonicMs() - started),
        ...(signal.aborted ? { outcome: "cancelled" as const } : {}),
      });
      const tool = byName.get(call.name);
      if (!tool) {
        return finish(
          `Unknown tool "${call.name}". Available tools: ${[...byName.keys()].join(", ")}`,
          true,
        );
      }
      const input = validateToolInput(tool, call.input);
      if (!input.ok) return finish(input.message, true);
      try {
        const result = await tool.run(input.value, { signal });
        return finish(result.content, result.isError ?? false);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return finish(`Tool ${call.name} failed: ${message}`, true);
      }
    },
  };
}
