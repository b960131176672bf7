import assert from "node:assert/strict";
import fc from "fast-check";
import { buildRequest, type DigestLayout, requestDigest } from "./request_body.ts";
import { canonicalJson } from "./canonical_json.ts";
import { conversationMessage } from "../state/message.ts";
import { buildSystemPrompt } from "./system_prompt.ts";
import { createBaseTools } from "../tools/base_tools.ts";

const system = buildSystemPrompt({
  workspace: "/w",
  clockAtStart: "2026-11-22T10:00:00.000Z",
  platform: "linux x86_64",
  model: "m",
  tools: [{ name: "bash" }],
});
const tools = [
  { name: "bash", description: "Run", input_schema: { type: "object" } },
  { name: "read_file", description: "Read", input_schema: { type: "object" } },
];

Deno.test("the request marks cache breakpoints on the last tool and the last message block", () => {
  const messages = [
    { role: "user" as const, content: [{ type: "text", text: "a" }] },
    { role: "assistant" as const, content: [{ type: "text", text: "b" }] },
    { role: "user" as const, content: [{ type: "text", text: "c" }] },
  ];
  const body = buildRequest({ model: "m", maxTokens: 100, system, tools, messages });
  assert.equal(body.tools[0]?.cache_control, undefined);
  assert.deepEqual(body.tools[1]?.cache_control, { type: "ephemeral" });
  assert.deepEqual(body.messages[2]?.content[0], {
    type: "text",
    text: "c",
    cache_control: { type: "ephemeral" },
  });
  assert.equal("cache_control" in (messages[2]?.content[0] ?? {}), false, "input is not mutated");
  assert.equal("cache_control" in tools[1]!, false, "the tools are not mutated");
  const again = buildRequest({ model: "m", maxTokens: 100, system, tools, messages });
  assert.equal(again.tools[1], body.tools[1], "the last tool's marked copy is made once");
  assert.deepEqual(body.system.at(-1)?.cache_control, { type: "ephemeral" });
  assert.equal(body.stream, true);
});

Deno.test("the digest ignores key order and changes with any content", async () => {
  const a = buildRequest({
    model: "m",
    maxTokens: 1,
    system,
    tools,
    messages: [{ role: "user", content: [{ type: "text", text: "x" }] }],
  });
  const b = JSON.parse(JSON.stringify(a, Object.keys(a).reverse()));
  for (const layout of LAYOUTS) {
    assert.equal(await requestDigest(a, layout), await requestDigest({ ...b, ...a }, layout));
  }
  assert.notEqual(await requestDigest(a, "sorted"), await requestDigest(a, "messages-last"));
  const c = buildRequest({
    model: "m",
    maxTokens: 1,
    system,
    tools,
    messages: [{ role: "user", content: [{ type: "text", text: "y" }] }],
  });
  assert.notEqual(await requestDigest(a), await requestDigest(c));
  assert.notEqual(await requestDigest(a, "messages-last"), await requestDigest(c, "messages-last"));
  assert.equal(
    canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } }),
    '{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}',
  );
});

Deno.test("the system prompt is the same for the same session, whatever the time of day", () => {
  const later = buildSystemPrompt({
    workspace: "/w",
    clockAtStart: "2026-11-22T23:59:59.000Z",
    platform: "linux x86_64",
    model: "m",
    tools: [{ name: "bash" }],
  });
  assert.deepEqual(later, system);
});

Deno.test("the system prompt built again from the same pool and sections is the same blocks", () => {
  const pool = [{ name: "bash", guidance: "Use bash for commands." }];
  const sections = [{ id: "memory", stability: 1, text: "Notes." }];
  const input = {
    workspace: "/w",
    clockAtStart: "2026-11-22T10:00:00.000Z",
    platform: "linux x86_64",
    model: "m",
    tools: pool,
    sections,
  };
  const first = buildSystemPrompt(input);
  assert.equal(buildSystemPrompt({ ...input }), first);
  const other = buildSystemPrompt({ ...input, sections: [{ ...sections[0]!, text: "More." }] });
  assert.notEqual(other, first);
  assert.match(other.at(-1)?.text ?? "", /More\./);
  assert.match(buildSystemPrompt({ ...input, model: "n" })[1]?.text ?? "", /Model: n/);
  assert.equal(buildSystemPrompt({ ...input, tools: [...pool] })[0]?.text, first[0]?.text);
});

Deno.test("the assembled system prompt matches its snapshot", async () => {
  const prompt = buildSystemPrompt({
    workspace: "/home/user/project",
    clockAtStart: "2026-11-22T10:00:00.000Z",
    platform: "linux x86_64",
    model: "claude-sonnet-5-5",
    tools: createBaseTools({ workspace: "/home/user/project" }),
  });
  const file = new URL("./testdata/system_prompt.json", import.meta.url);
  const actual = `${JSON.stringify(prompt, null, 2)}\n`;
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") await Deno.writeTextFile(file, actual);
  const expected = await Deno.readTextFile(file);
  assert.equal(
    actual,
    expected,
    "System prompt changed: review, then rerun with UPDATE_SNAPSHOTS=1",
  );
});

const LAYOUTS: DigestLayout[] = ["sorted", "messages-last"];

/**
 * A message that may be changed in place, as conversations were before their messages were
 * frozen (core/state/message.ts): the digest must see such a change too.
 */
interface Message {
  role: "user" | "assistant";
  content: Array<Record<string, unknown> & { type: string }>;
}

/**
 * sha256 of the request's text as the sorting replacer writes it (with `messages-last`, the
 * body's `messages` moved after its other keys), for comparison.
 */
async function referenceDigest(body: unknown, layout: DigestLayout = "sorted"): Promise<string> {
  const text = JSON.stringify(body, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    if (v === body && layout === "messages-last") {
      const { messages, ...rest } = sorted;
      return { ...rest, messages };
    }
    return sorted;
  });
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("");
}

for (const layout of LAYOUTS) {
  Deno.test(`the digest (${layout}) of every round is the whole request's, however the conversation changed`, async () => {
    await everyRound(layout);
  });
}

async function everyRound(layout: DigestLayout): Promise<void> {
  const messages: Message[] = [{
    role: "user",
    content: [{ type: "text", text: "go" }],
  }];
  const check = async (what: string) => {
    const body = buildRequest({ model: "m", maxTokens: 100, system, tools, messages });
    assert.equal(await requestDigest(body, layout), await referenceDigest(body, layout), what);
  };
  for (let round = 0; round < 12; round++) {
    await check(`round ${round}`);
    const id = `toolu_${round}`;
    messages.push({
      role: "assistant",
      content: [{ type: "text", text: `Reading ${round} ✓` }, {
        type: "tool_use",
        id,
        name: "read_file",
        input: { path: `f${round}` },
      }],
    });
    await check(`round ${round}, answer last`);
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: "x".repeat(round * 100) }],
    });
    // A block added in place to the last message (a reminder).
    messages.at(-1)?.content.push({
      type: "text",
      text: `<system-reminder>${round}</system-reminder>`,
    });
  }
  // An answer discarded: the message before it grows again in place.
  messages.push({ role: "assistant", content: [{ type: "text", text: "cut off" }] });
  await check("before the discard");
  messages.pop();
  messages.at(-1)?.content.push({ type: "text", text: "continue" });
  await check("after the discard");
  // A result replaced by a preview (a new block in a new message), then the start cut away.
  const third = messages[2] as Message;
  messages[2] = { role: "user", content: [{ ...third.content[0]!, content: "[cleared]" }] };
  await check("after a result was cleared");
  messages.splice(1, 4);
  await check("after a snip");
  messages.splice(0, 1, { role: "user", content: [{ type: "text", text: "summary" }] });
  await check("after a compaction");
}

/** A change the fold makes to a conversation's messages (never to a block in place). */
const editArb = fc.oneof(
  fc.record({ kind: fc.constant("answer"), text: fc.string() }),
  fc.record({ kind: fc.constant("result"), text: fc.string({ maxLength: 300 }) }),
  fc.record({ kind: fc.constantFrom("append", "insert"), text: fc.string() }),
  fc.record({
    kind: fc.constantFrom("discard", "restart", "maxTokens", "side", "tools", "system", "thinking"),
  }),
  // "swap": two messages before the last change places (as many messages as before, each written
  // before, neither where it was).
  fc.record({ kind: fc.constantFrom("replace", "snip", "swap"), at: fc.nat() }),
  // Several changes before the next request: the answer discarded, the message before it grown
  // in place, another answer.
  fc.record({ kind: fc.constant("regrow"), text: fc.string() }),
  // A message grown in place, then frozen with its content.
  fc.record({ kind: fc.constant("seal"), text: fc.string(), at: fc.nat() }),
);

Deno.test("the digest of any sequence of conversation edits is the whole request's", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...LAYOUTS),
      fc.boolean(),
      // Rounds before the first request: long enough a conversation that edits land after the
      // hash states the digest keeps on the way (one every 16 messages).
      fc.nat({ max: 30 }),
      fc.array(editArb, { maxLength: 40 }),
      async (layout, frozen, rounds, edits) => {
        // New messages frozen (as the fold makes them) or not; a frozen one grows by being replaced.
        const make = (role: Message["role"], content: Message["content"]): Message =>
          frozen ? conversationMessage(role, content) as Message : { role, content };
        const grow = (index: number, block: Message["content"][number], first = false) => {
          const message = messages[index] as Message;
          if (!Object.isFrozen(message)) {
            if (first) message.content.unshift(block);
            else message.content.push(block);
            return;
          }
          const content = first ? [block, ...message.content] : [...message.content, block];
          messages[index] = make(message.role, content);
        };
        const messages: Message[] = [make("user", [{ type: "text", text: "start" }])];
        for (let round = 0; round < rounds; round++) {
          messages.push(make("assistant", [{ type: "text", text: `answer ${round}` }]));
          messages.push(make("user", [{ type: "text", text: `result ${round}` }]));
        }
        let maxTokens = 100;
        let thinkingBudget: number | null = null;
        // What follows the messages in the canonical JSON: the system prompt and the tools.
        let toolSet: typeof tools = tools;
        let prompt = system;
        for (const edit of edits) {
          const last = messages.length - 1;
          const at = "at" in edit ? 1 + edit.at % Math.max(1, messages.length - 1) : 0;
          if (edit.kind === "answer") {
            messages.push(make("assistant", [{ type: "text", text: edit.text }]));
          } else if (edit.kind === "result") {
            messages.push(make("user", [{ type: "text", text: edit.text }]));
          } else if (edit.kind === "append") grow(last, { type: "text", text: edit.text });
          else if (edit.kind === "insert") grow(last, { type: "text", text: edit.text }, true);
          else if (edit.kind === "seal" && at < messages.length) {
            grow(at, { type: "text", text: edit.text });
            const message = messages[at] as Message;
            Object.freeze(message.content);
            Object.freeze(message);
          } else if (edit.kind === "discard" && messages.length > 1) messages.pop();
          else if (edit.kind === "restart") {
            messages[0] = make("user", [{ type: "text", text: "summary" }]);
          } else if (edit.kind === "maxTokens") maxTokens += 1;
          else if (edit.kind === "thinking") thinkingBudget = thinkingBudget === null ? 50 : null;
          else if (edit.kind === "tools") toolSet = toolSet === tools ? tools.slice(0, 1) : tools;
          else if (edit.kind === "system") {
            prompt = prompt === system ? [...system, { type: "text", text: "more" }] : system;
          } else if (edit.kind === "replace" && at < messages.length) {
            const message = messages[at] as Message;
            messages[at] = make(message.role, [{ type: "text", text: "[cleared]" }]);
          } else if (edit.kind === "snip" && at < messages.length - 1) messages.splice(at, 1);
          else if (edit.kind === "swap" && at < messages.length - 2) {
            const one = messages[at] as Message;
            messages[at] = messages[at + 1] as Message;
            messages[at + 1] = one;
          } else if (edit.kind === "regrow" && messages.length > 1) {
            messages.pop();
            grow(messages.length - 1, { type: "text", text: edit.text });
            messages.push(make("assistant", [{ type: "text", text: "again" }]));
          }
          const side = edit.kind === "side"
            ? [...messages.slice(0, -1), {
              role: "user" as const,
              content: [{ type: "text", text: "sum" }],
            }]
            : messages;
          const body = buildRequest({
            model: "m",
            maxTokens,
            system: prompt,
            tools: toolSet,
            messages: side,
            thinkingBudget,
          });
          assert.equal(await requestDigest(body, layout), await referenceDigest(body, layout));
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("the request's copy of a last block whose members JSON leaves out digests as the whole request", async () => {
  for (const layout of LAYOUTS) {
    for (const block of [{ text: undefined, type: undefined }, { text: "a", type: undefined }]) {
      const messages = [
        conversationMessage("user", [{ text: "go", type: "text" }]),
        conversationMessage("assistant", [block as unknown as { type: string }]),
      ];
      const body = buildRequest({ model: "m", maxTokens: 100, system, tools, messages });
      assert.equal(await requestDigest(body, layout), await referenceDigest(body, layout));
    }
  }
});
