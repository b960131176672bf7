import assert from "node:assert/strict";
import fc from "fast-check";
import type { ContextCleared, ConversationMessage } from "../../events/event_types.ts";
import { CLEARED_PREFIX, planClear } from "./clear.ts";
import { estimateTokens } from "./estimate.ts";

type Block = ConversationMessage["content"][number];

const pathArb = fc.constantFrom("a.ts", "b.ts", "c.ts");
const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.record({
    type: fc.constant("tool_use"),
    id: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    name: fc.constantFrom("read_file", "write_file", "edit_file", "bash", "grep"),
    input: fc.oneof(
      fc.record({ path: pathArb }),
      fc.record({ file_path: pathArb }),
      fc.record({ command: fc.constantFrom("ls", "make") }),
      fc.constant({}),
    ),
  }),
  fc.record({
    type: fc.constant("tool_result"),
    tool_use_id: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    content: fc.oneof(
      fc.integer({ min: 0, max: 900 }).map((n) => "x".repeat(n)),
      fc.constant(`${CLEARED_PREFIX} to save context: bash "ls". Run it again.]`),
    ),
  }),
  fc.record({ type: fc.constant("text"), text: fc.constantFrom("ok", "next") }),
);
const messagesArb = fc.array(
  fc.record({
    role: fc.constantFrom<"user" | "assistant">("user", "assistant"),
    content: fc.array(blockArb, { minLength: 1, maxLength: 4 }),
  }),
  { maxLength: 24 },
);

Deno.test("planClear decides what the walk over every call and result decides", () => {
  fc.assert(
    fc.property(
      messagesArb,
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      (messages, keepRecentResults, clearStep) => {
        const limits = { keepRecentResults, clearStep };
        assert.deepEqual(planClear(messages, limits), referenceClear(messages, limits));
      },
    ),
    { numRuns: 500 },
  );
});

/**
 * Micro-compaction as first written: every call and result collected, then the due ones (stale
 * reads, and all but the recent results of 400 characters or more), cleared when `clearStep` are.
 */
function referenceClear(
  messages: readonly ConversationMessage[],
  limits: { keepRecentResults: number; clearStep: number },
): ContextCleared | undefined {
  const calls = new Map<string, Block>();
  const callsAt = new Map<string, number>();
  const writtenAt = new Map<string, number>();
  const results: { id: string; chars: number }[] = [];
  const pathOf = (block: Block) => {
    const input = (block.input ?? {}) as Record<string, unknown>;
    const path = input.path ?? input.file_path;
    return typeof path === "string" ? path : undefined;
  };
  messages.forEach((message, at) => {
    for (const block of message.content) {
      if (block.type === "tool_use") {
        calls.set(String(block.id), block);
        callsAt.set(String(block.id), at);
        const path = pathOf(block);
        if (["write_file", "edit_file"].includes(String(block.name)) && path !== undefined) {
          writtenAt.set(path, at);
        }
      } else if (block.type === "tool_result" && typeof block.content === "string") {
        if (!block.content.startsWith(CLEARED_PREFIX)) {
          results.push({ id: String(block.tool_use_id), chars: block.content.length });
        }
      }
    }
  });
  const recent = new Set(results.slice(-limits.keepRecentResults).map((r) => r.id));
  const due = results.filter((result) => {
    if (result.chars < 400) return false;
    const call = calls.get(result.id);
    const path = call ? pathOf(call) : undefined;
    const stale = call !== undefined && call.name === "read_file" && path !== undefined &&
      (writtenAt.get(path) ?? -1) > (callsAt.get(result.id) as number);
    return stale || !recent.has(result.id);
  });
  if (due.length < limits.clearStep) return undefined;
  let tokensFreed = 0;
  const cleared = due.map((result) => {
    const call = calls.get(result.id);
    const input = (call?.input ?? {}) as Record<string, unknown>;
    const key = input.path ?? input.file_path ?? input.command ?? input.pattern;
    const what = typeof key === "string" ? ` ${JSON.stringify(key.slice(0, 120))}` : "";
    const text =
      `${CLEARED_PREFIX} to save context: ${call ? String(call.name) : "tool"}${what}. ` +
      "Run it again if you need its output.]";
    tokensFreed += Math.max(0, Math.ceil(result.chars / 4) - estimateTokens(text));
    return { callId: result.id, text };
  });
  return { results: cleared, tokensFreed };
}
