/**
 * The digest of one round's request as the conversation grows: `deno bench -A
 * bench/request_digest_bench.ts`. Every model call records `requestDigest` of its whole request,
 * so a cost that grows with the conversation makes each round slower than the last (live and in
 * `replay --verify`). Each bench starts from a conversation of `size` rounds and, in each of its
 * 50 timed iterations, adds a round (an answer with a tool call and its 2,000-character result,
 * as compaction's previews are) and digests the next request, as a session does; the times should
 * hardly grow with the size.
 *
 * @module
 */
import type { ConversationMessage } from "../events/event_types.ts";
import { buildRequest, requestDigest } from "../core/request/request_body.ts";
import { buildSystemPrompt } from "../core/request/system_prompt.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import { toolPool } from "../core/tools/tool_pool.ts";
import { initialState } from "../core/state/state.ts";

const tools = createBaseTools({ workspace: "/w" });
const pool = toolPool({ state: initialState(), session: "s", agent: "lead" }, [() => tools]);

/** Messages of `rounds` read_file rounds after a prompt. */
function conversation(rounds: number): ConversationMessage[] {
  const messages: ConversationMessage[] = [
    { role: "user", content: [{ type: "text", text: "Read every part" }] },
  ];
  for (let round = 0; round < rounds; round++) addRound(messages, round);
  return messages;
}

function addRound(messages: ConversationMessage[], round: number): void {
  const id = `toolu_${round}`;
  messages.push({
    role: "assistant",
    content: [
      { type: "text", text: `Reading part ${round}.` },
      { type: "tool_use", id, name: "read_file", input: { path: `data/part_${round}.txt` } },
    ],
  });
  messages.push({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: `line ${round}\n`.repeat(200) }],
  });
}

function request(messages: readonly ConversationMessage[]) {
  return buildRequest({
    model: "claude-sonnet-5",
    maxTokens: 32_000,
    system: buildSystemPrompt({
      workspace: "/w",
      clockAtStart: "2026-11-22T10:00:00.000Z",
      platform: "linux x86_64",
      model: "claude-sonnet-5",
      tools: pool.tools,
    }),
    tools: pool.definitions,
    messages,
  });
}

for (const size of [50, 200, 800]) {
  const messages = conversation(size);
  let round = size;
  await requestDigest(request(messages));
  Deno.bench({
    name: `a round's request digest, ${size} rounds before it`,
    group: "digest",
    baseline: size === 50,
    n: 50,
    warmup: 5,
    async fn() {
      addRound(messages, round++);
      await requestDigest(request(messages));
    },
  });
}
