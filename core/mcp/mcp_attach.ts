import { keepWhole } from "./_keep_whole.ts";
import type { McpAttached, NewEvent } from "../../events/event_types.ts";
import type { McpContentBlock } from "./mcp_connection_types.ts";
import { type McpServers, mcpServersOf } from "./mcp_servers.ts";
import { DEFAULT_MCP_LIMITS, type McpLimits } from "./mcp_tools.ts";
import { MCP_ATTACH_SOURCE, mcpProjection } from "./mcp_projection.ts";
import type { Arrival } from "../loop/arrivals.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import { sliceOf } from "../state/state.ts";

/** One `@server:uri` of a prompt. */
export interface ResourceMention {
  server: string;
  uri: string;
}

/**
 * Claude Code's `@server:protocol://path` resource mentions in `text`, in order, each once: a
 * server name (letters, digits, `-`, `_`) after a space or at the start, a colon, and a URI with a
 * scheme and `://` (a file path such as `@src/a.ts` or a time `@12:30` is not one); a trailing
 * `.`, `,`, `;`, `:`, `!`, `?` or closing bracket or quote ends the sentence, not the URI. Pure.
 */
export function resourceMentions(text: string): ResourceMention[] {
  const found: ResourceMention[] = [];
  const seen = new Set<string>();
  for (
    const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9_-]+):([A-Za-z][A-Za-z0-9+.-]*:\/\/\S*)/g)
  ) {
    const server = match[1] ?? "";
    const uri = (match[2] ?? "").replace(/[.,;:!?)\]}'"]+$/, "");
    const key = `${server}\0${uri}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ server, uri });
  }
  return found;
}

/** Where {@link attachMcpResources} reads and records. */
export interface AttachPlace {
  /** The harness's effects (its MCP servers: none in replay). */
  effects: object;
  /** Appends events to the log (the harness's store). */
  append(events: NewEvent[]): Promise<unknown>;
  session: string;
  agent: string;
  workspace: string;
  /** Told one line for each mention that could not be attached. */
  onNote(line: string): void;
}

/**
 * Attach each `@server:uri` of `text` as Claude Code does: the resource is read from its server
 * (live, once the servers are up) and recorded (`mcp.attached`, as the agent's), and the next
 * request of the agent has it after the prompt, in the prompt's user message ("Full contents of
 * resource:", its text, "Do NOT read this resource again …"; a binary one named by its type). A
 * mention that cannot be read (no such server, not connected, no resources, an unknown URI) is
 * left out, as Claude Code leaves it out, and `onNote` says why; the prompt goes without it. Text
 * over `MAX_MCP_OUTPUT_TOKENS` is kept in `.rein/outputs/` and the model gets its beginning and
 * the file's path, as a large tool output. Returns how many were attached.
 */
export async function attachMcpResources(
  place: AttachPlace,
  text: string,
  signal: AbortSignal,
): Promise<number> {
  const mentions = resourceMentions(text);
  if (mentions.length === 0) return 0;
  const servers = mcpServersOf(place.effects);
  const limits = mcpLimitsOf(place.effects);
  const attached: McpAttached[] = [];
  for (const mention of mentions) {
    const read = await readMention(servers, mention, limits, place.workspace, signal);
    if (typeof read === "string") {
      place.onNote(`@${mention.server}:${mention.uri} is not attached: ${read}`);
      continue;
    }
    attached.push(read);
  }
  if (attached.length === 0) return 0;
  await place.append(attached.map((data) => ({
    type: "mcp.attached",
    data,
    session: place.session,
    agent: place.agent,
  })));
  return attached.length;
}

/** The resource as the model reads it, or why it cannot be attached. */
async function readMention(
  servers: McpServers | undefined,
  { server, uri }: ResourceMention,
  limits: McpLimits,
  workspace: string,
  signal: AbortSignal,
): Promise<McpAttached | string> {
  if (servers === undefined || !servers.has(server)) {
    return `no MCP server "${server}" is configured`;
  }
  await servers.started();
  const connection = await servers.ready(server, signal);
  if (!connection) return servers.whyNot(server);
  if (!connection.resources) return `MCP server "${server}" offers no resources`;
  let contents: McpContentBlock[];
  try {
    contents = await connection.readResource(uri, signal);
  } catch (error) {
    return `"${server}" cannot read it (${error instanceof Error ? error.message : error})`;
  }
  const text = attachmentText(server, uri, contents);
  const max = limits.maxOutputTokens * 4;
  if (text.length <= max) return { server, uri, text };
  const path = `.rein/outputs/mcp-resource-${crypto.randomUUID()}.txt`;
  const error = await keepWhole(workspace, path, text);
  if (error !== undefined) {
    return `it is ${text.length} characters, over MAX_MCP_OUTPUT_TOKENS ` +
      `(${limits.maxOutputTokens}), and could not be kept in a file: ${error}`;
  }
  return {
    server,
    uri,
    text:
      `${
        text.slice(0, Math.min(2_000, max))
      }\n\n[The resource ${uri} of "${server}" is ${text.length} ` +
      `characters, over MAX_MCP_OUTPUT_TOKENS (${limits.maxOutputTokens} tokens). The whole ` +
      `of it is in ${path}: read it with read_file (offset and limit) or search it with grep.]`,
    spilled: path,
  };
}

/** Claude Code's attachment text for a resource's contents. Pure. */
export function attachmentText(
  server: string,
  uri: string,
  contents: readonly McpContentBlock[],
): string {
  const parts: string[] = [];
  for (const item of contents) {
    if (typeof item.text === "string") {
      parts.push(
        `Full contents of resource:\n${item.text}\nDo NOT read this resource again unless you ` +
          "think it may have changed, since you already have the full contents.",
      );
    } else if (item.blob !== undefined) {
      parts.push(`[Binary content: ${item.mimeType ?? "application/octet-stream"}]`);
    }
  }
  if (parts.length > 0) return parts.join("\n\n");
  const empty = contents.length === 0 ? "(No content)" : "(No displayable content)";
  return `<mcp-resource server="${server}" uri="${uri}">${empty}</mcp-resource>`;
}

/** The MCP limits a harness's effects carry (`HarnessEffects.mcp`), or Claude Code's defaults. */
function mcpLimitsOf(effects: object): McpLimits {
  const mcp = "mcp" in effects ? effects.mcp : undefined;
  const limits = typeof mcp === "object" && mcp !== null && "limits" in mcp
    ? mcp.limits as McpLimits | undefined
    : undefined;
  return limits ?? DEFAULT_MCP_LIMITS;
}

/**
 * The resources attached to `scope`'s agent's prompt, not yet put before the model: one arrival
 * each (source `mcp`), added to the prompt's user message by its `arrival.injected`. Pure.
 */
export function mcpArrivals(scope: PoolScope): Arrival[] {
  if (!("mcp" in scope.state.extensions)) return [];
  const waiting = sliceOf(scope.state, mcpProjection)[scope.session]?.attached?.[scope.agent];
  return (waiting ?? []).map(({ key, seq, text }) => ({
    source: MCP_ATTACH_SOURCE,
    key,
    seq,
    text,
  }));
}
