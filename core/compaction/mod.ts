/**
 * Context compaction (s08): large tool results kept in files, the oldest middle messages cut,
 * old results cleared, and the conversation summarised when the context passes the threshold,
 * on `/compact` and the model's `compact` tool; each a pure plan over the state, recorded.
 *
 * @module
 */
export { CLEARED_PREFIX, planClear } from "./clear.ts";
export { COMPACT_TOOL, type CompactInput, compactTool } from "./compact_tool.ts";
export { COMPACTION_ENV, type CompactionConfig, compactionConfig } from "./compaction_config.ts";
export {
  compactionMechanism,
  configOf,
  type OutputWriter,
  usedTokens,
} from "./compaction_mechanism.ts";
export { contextTokens, estimateTokens, messagesTokens } from "./estimate.ts";
export { planSnip } from "./snip.ts";
export { planSpill, spillPath } from "./spill.ts";
export { planCut, SUMMARY_PROMPT, summaryRequest } from "./summary_request.ts";
