import type { AgentDefinition } from "./agent_definition.ts";

/** The subagent type a `task` call without `subagent_type` starts. */
export const DEFAULT_AGENT_TYPE = "general-purpose";

/**
 * Claude Code's built-in subagent types: `general-purpose` (every tool but `task`) and
 * `Explore` (read-only: it searches and reads, and changes nothing).
 */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: DEFAULT_AGENT_TYPE,
    description: "General-purpose agent for researching complex questions, searching for code " +
      "and carrying out multi-step tasks on its own. Use it when a search or a change may take " +
      "several rounds of looking around.",
    systemPrompt: [
      "You are a subagent: another agent gave you the task in the first message, and it sees",
      "only your final answer. Do the task with your tools, then answer with a concise report of",
      "what you found or did (files and lines where they matter). Do not ask questions: nobody",
      "answers them.",
    ].join("\n"),
  },
  {
    name: "Explore",
    description: "Fast read-only agent for exploring a codebase: finding files by pattern, " +
      "searching code for keywords, answering questions about how the code works. It changes " +
      "nothing.",
    tools: ["read_file", "glob", "grep"],
    systemPrompt: [
      "You are a read-only exploration subagent: another agent gave you the question in the",
      "first message, and it sees only your final answer. Search and read with your tools (you",
      "cannot change anything), then answer concisely, naming the files and lines that matter.",
    ].join("\n"),
  },
];
