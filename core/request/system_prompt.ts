import type { SystemBlock } from "../effects/model_client.ts";

/** A tool as the system prompt mentions it: its name and its line of guidance, if any. */
export interface PromptTool {
  name: string;
  guidance?: string;
}

/**
 * A block a mechanism adds to the system prompt (memory files, the skills catalogue, …).
 * Sections are ordered by `stability`, most stable first, so that what changes least sits in the
 * cached prefix; ties keep the order they were given in.
 */
export interface SystemSection {
  /** Names the section in snapshots and diagnostics (`memory`, `skills`). */
  id: string;
  /** 0 never changes within a session … higher changes more often. */
  stability: number;
  text: string;
}

/** What the system prompt is assembled from; every field comes from the log, never the clock. */
export interface SystemPromptInput {
  workspace: string;
  /** ISO time recorded at session start; only its date is shown, so the prompt stays cacheable. */
  clockAtStart: string;
  platform: string;
  model: string;
  /** The agent's tool pool, in pool order. */
  tools: readonly PromptTool[];
  /** Mechanisms' sections, after the environment. */
  sections?: readonly SystemSection[];
  /** Replaces rein's instructions (who it is, how it works) when given. */
  instructions?: string | null;
  /** Added after everything else when given. */
  appended?: string | null;
}

const INTRO = [
  "You are rein, a coding agent working in the user's terminal. You help with software",
  "engineering: reading and changing code, running commands, debugging, explaining.",
  "",
  "How you work:",
  "- Act, don't narrate: use the tools to inspect the workspace before you answer questions",
  "  about it, and make changes with the tools rather than printing code for the user to paste.",
];

const HABITS = [
  "- When a command fails, read the error and fix the cause instead of retrying blindly.",
  "- Never invent file contents, command output or test results. If you are unsure, check.",
  "- Be concise. When the task is done, say briefly what you did and what is left, if anything.",
];

/** Width of the guidance lines of the tools, as the rest of the prompt is wrapped. */
const WRAP = 93;

/**
 * Assemble the system prompt: who the agent is and how it works (with a line of guidance from
 * each tool of the pool that has one), the environment, then the mechanisms' sections by
 * stability. Pure: the same input gives byte-identical output from round to round, and the last
 * block carries a `cache_control` breakpoint so the provider's prompt cache can serve it.
 */
export function buildSystemPrompt(input: SystemPromptInput): SystemBlock[] {
  const known = BUILT.get(input.tools);
  if (known && sameInput(known.input, input)) return known.blocks;
  const blocks = assemble(input);
  BUILT.set(input.tools, { input: { ...input }, blocks });
  return blocks;
}

/**
 * The prompt built last for each list of tools (a pool's, the same object while the pool is the
 * same), with what else it was built from: built before every model call, it hardly ever
 * changes. Its blocks are never changed after they are made.
 */
const BUILT = new WeakMap<
  readonly PromptTool[],
  { input: SystemPromptInput; blocks: SystemBlock[] }
>();

function sameInput(a: SystemPromptInput, b: SystemPromptInput): boolean {
  return a.workspace === b.workspace && a.clockAtStart === b.clockAtStart &&
    a.platform === b.platform && a.model === b.model && a.sections === b.sections &&
    a.instructions === b.instructions && a.appended === b.appended;
}

function assemble(input: SystemPromptInput): SystemBlock[] {
  const guidance = input.tools.flatMap((tool) =>
    tool.guidance ? [wrappedGuidance(tool, tool.guidance)] : []
  );
  const identity = input.instructions ?? [...INTRO, ...guidance, ...HABITS].join("\n");
  const environment = [
    "Environment:",
    `- Workspace: ${input.workspace} (all file paths are relative to it; tools cannot reach`,
    "  outside it)",
    `- Platform: ${input.platform}`,
    `- Date: ${input.clockAtStart.slice(0, 10)}`,
    `- Model: ${input.model}`,
    `- Tools: ${input.tools.map((tool) => tool.name).join(", ")}`,
  ].join("\n");
  const sections = [...(input.sections ?? [])]
    .map((section, index) => ({ section, index }))
    .sort((a, b) => a.section.stability - b.section.stability || a.index - b.index)
    .map(({ section }) => section.text);
  const texts = [identity, environment, ...sections, ...(input.appended ? [input.appended] : [])];
  return texts.map((text, i) =>
    i === texts.length - 1
      ? { type: "text", text, cache_control: { type: "ephemeral" } }
      : { type: "text", text }
  );
}

/**
 * A tool's guidance as wrapped last time for the same tool object and text: the prompt is built
 * before every model call, the guidance of a pool's tools hardly ever changes.
 */
const WRAPPED = new WeakMap<PromptTool, { guidance: string; bullet: string }>();

function wrappedGuidance(tool: PromptTool, guidance: string): string {
  const known = WRAPPED.get(tool);
  if (known?.guidance === guidance) return known.bullet;
  const bullet = wrapBullet(guidance, WRAP);
  WRAPPED.set(tool, { guidance, bullet });
  return bullet;
}

/** `text` as a "- " bullet wrapped at `width` columns, continuation lines indented two. Pure. */
export function wrapBullet(text: string, width: number): string {
  const lines: string[] = [];
  let line = "-";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > width && line.trim() !== "-") {
      lines.push(line);
      line = " ";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}
