/**
 * The floor of the agent bench: about the least a Deno agent can do to drive the bench's
 * scenario. It POSTs `/v1/messages` with `stream: true` through plain `fetch`, reads the SSE
 * stream just enough to collect the tool_use blocks, runs each command with bash, sends the
 * results back and loops until the model answers without a tool call. No SDK, no log, no
 * validation, no CLI parser. It prints `tool <ms>` for each call (its run time) on stdout, so the
 * bench can compute the same harness gap as for rein.
 *
 * Run as the bench runs rein: `deno run -A bench/_floor_agent.ts agent -p PROMPT --workspace DIR`
 * with `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY` set.
 *
 * @module
 */

interface Block {
  type: string;
  id?: string;
  text?: string;
  input?: { command?: string };
}

function flag(name: string): string | undefined {
  const at = Deno.args.indexOf(name);
  return at === -1 ? undefined : Deno.args[at + 1];
}
const workspace = flag("--workspace") ?? Deno.cwd();
const url = `${Deno.env.get("ANTHROPIC_BASE_URL") ?? "https://api.anthropic.com"}/v1/messages`;
const headers = {
  "content-type": "application/json",
  "anthropic-version": "2023-06-01",
  "x-api-key": Deno.env.get("ANTHROPIC_API_KEY") ?? "",
};
const tools = [{
  name: "bash",
  description: "Runs a bash command in the workspace and returns its output",
  input_schema: { type: "object", properties: { command: { type: "string" } } },
}];
const messages: unknown[] = [{ role: "user", content: flag("-p") ?? "go" }];
const decoder = new TextDecoder();

while (true) {
  const body = { model: "claude-sonnet-5-5", max_tokens: 32_000, stream: true, tools, messages };
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok || !response.body) throw new Error(`Model API error ${response.status}`);
  const content = await readBlocks(response.body);
  messages.push({ role: "assistant", content });
  const calls = content.filter((block) => block.type === "tool_use");
  if (calls.length === 0) break;
  const results = [];
  for (const call of calls) {
    const started = performance.now();
    const output = await new Deno.Command("bash", {
      args: ["-c", `exec 2>&1; ${call.input?.command ?? ""}`],
      cwd: workspace,
      stdin: "null",
    }).output();
    console.log(`tool ${Math.round(performance.now() - started)}`);
    const text = decoder.decode(output.stdout).trimEnd();
    results.push({ type: "tool_result", tool_use_id: call.id, content: text || "(No output)" });
  }
  messages.push({ role: "user", content: results });
}

/** The content blocks of a streamed message, tool inputs parsed from their JSON deltas. */
async function readBlocks(stream: ReadableStream<Uint8Array>): Promise<Block[]> {
  const blocks: Block[] = [];
  const json: string[] = [];
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const data = buffer.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
      buffer = buffer.slice(end + 2);
      const event = data ? JSON.parse(data.slice(6)) : {};
      const i: number = event.index;
      if (event.type === "content_block_start") [blocks[i], json[i]] = [event.content_block, ""];
      else if (event.delta?.type === "text_delta") blocks[i]!.text += event.delta.text;
      else if (event.delta?.type === "input_json_delta") json[i] += event.delta.partial_json;
      else if (event.type === "content_block_stop" && json[i]) {
        blocks[i]!.input = JSON.parse(json[i]!);
      }
    }
  }
  return blocks;
}
