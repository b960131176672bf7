import type {
  CompactionCompleted,
  CompactionStarted,
  ReinEvent,
} from "../../events/event_types.ts";
import { ModelError } from "../effects/model_client.ts";
import type { CompactOutcome, CompactRequest, StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderCompactionEvent } from "./compaction_render.ts";
import { contextWindowOf } from "../models/catalogue.ts";
import { compactMessages } from "../state/context_edits.ts";
import { compactedText, type Conversation, summaryText } from "../state/conversation.ts";
import { agentOf } from "../state/sessions.ts";
import type { State } from "../state/state.ts";
import { planClear } from "./clear.ts";
import { COMPACT_TOOL, type CompactInput, compactTool } from "./compact_tool.ts";
import { type CompactionConfig, compactionConfig } from "./compaction_config.ts";
import { contextTokens, estimateTokens } from "./estimate.ts";
import { planSnip } from "./snip.ts";
import { planSpill } from "./spill.ts";
import { planCut, summaryRequest } from "./summary_request.ts";

/** Where spilled outputs are written: live only (replay writes nothing). */
export type OutputWriter = (relativePath: string, text: string) => Promise<void>;

/**
 * Context compaction (s08), in the order s20 runs it before each model call: large tool results
 * kept in files (budget), the oldest middle messages cut (snip), old results cleared
 * (micro-compaction), and the conversation summarised when the context passes the threshold
 * (auto-compaction); plus `/compact`, the model's `compact` tool and a compaction when the API
 * says the prompt is too long. Every decision is a pure function of the state, recorded as an
 * event, and the summary is a recorded model call, so replay reproduces each compaction exactly.
 * Sessions recorded without compaction settings (older logs) are left as they were.
 */
export function compactionMechanism(writeOutput?: OutputWriter): Mechanism {
  return {
    name: "compaction",
    render: renderCompactionEvent,
    tools: (scope) => configOf(scope.state, scope.session, scope.agent) ? [compactTool] : [],
    stages: {
      beforeModel: async (context) => {
        await beforeModel(context, writeOutput);
        return [];
      },
      gateCall(context, call) {
        const agent = agentNow(context);
        const last = agent.messages.at(-1);
        const asked = last?.role === "assistant" &&
          last.content.some((b) => b.type === "tool_use" && b.name === COMPACT_TOOL);
        if (!asked || call.name === COMPACT_TOOL) return Promise.resolve({ run: true });
        return Promise.resolve({
          run: false,
          outcome: "blocked",
          reason: "Not run: the same answer asked to compact the conversation. Make the call " +
            "again after the compaction if it is still needed",
        });
      },
      compact(context, request) {
        const config = configOf(context.view(), context.session, context.agent);
        if (!config) {
          return Promise.resolve({
            compacted: false,
            reason: "this session was recorded without compaction",
            unavailable: true,
          });
        }
        if (request.trigger === "reactive" && !config.auto) {
          return Promise.resolve({
            compacted: false,
            reason: "automatic compaction is off (autoCompact, DISABLE_AUTO_COMPACT); run /compact",
          });
        }
        return compact(context, config, request);
      },
    },
  };
}

/** The compaction settings of an agent, or undefined when its session has none. Pure. */
export function configOf(
  state: State,
  session: string,
  agent: string,
): CompactionConfig | undefined {
  const view = state.sessions.byId[session];
  if (!view?.settings) return undefined;
  const own = agentOf(view, agent);
  // Asked several times a round (the pool, each step before a model call): made once per
  // recorded settings, window and output limit.
  const window = contextWindowOf(own.model);
  let made = CONFIGS.get(view.settings);
  if (!made) CONFIGS.set(view.settings, made = new Map());
  let byLimit = made.get(window);
  if (!byLimit) made.set(window, byLimit = new Map());
  if (!byLimit.has(own.maxTokens)) {
    byLimit.set(own.maxTokens, compactionConfig(view.settings, window, own.maxTokens));
  }
  return byLimit.get(own.maxTokens);
}

/**
 * The compaction settings made from each recorded settings snapshot (snapshots never change), by
 * context window and output limit.
 */
const CONFIGS = new WeakMap<object, Map<number, Map<number, CompactionConfig | undefined>>>();

function agentNow(context: StageContext): Conversation {
  return agentOf(context.view().sessions.byId[context.session]!, context.agent);
}

/** How full the agent's context is now, in estimated tokens. */
export function usedTokens(context: { nextRequest(): unknown }, agent: Conversation): number {
  return contextTokens(agent, () => estimateTokens(context.nextRequest()));
}

async function beforeModel(context: StageContext, writeOutput: OutputWriter | undefined) {
  const config = configOf(context.view(), context.session, context.agent);
  if (!config) return;
  const open = agentNow(context).compacting;
  if (open) {
    const request = { trigger: open.trigger, ...(open.focus ? { focus: open.focus } : {}) };
    await compact(context, config, request);
  }
  const asked = compactCall(agentNow(context));
  if (asked) {
    const focus = asked.focus?.trim();
    const outcome = await compact(context, config, {
      trigger: "tool",
      ...(focus ? { focus } : {}),
    });
    // The tool answered that a compaction would come: the model must hear that it did not.
    if (!outcome.compacted) {
      const text = `The compaction you asked for did not happen: ${outcome.reason}. The ` +
        "conversation goes on as it was.";
      await context.record([{ type: "reminder.added", data: { source: "compaction", text } }]);
    }
  }
  const spill = planSpill(agentNow(context).messages, config);
  if (spill.spilled.length > 0) {
    if (writeOutput) {
      for (const result of spill.spilled) {
        await writeOutput(result.path, spill.texts.get(result.callId) ?? "");
      }
    }
    await context.record([{ type: "context.spilled", data: { results: spill.spilled } }]);
  }
  if (!config.auto) return;
  const snip = planSnip(agentNow(context).messages, agentNow(context).messageSeqs, config);
  if (snip) await context.record([{ type: "context.snipped", data: snip }]);
  const agent = agentNow(context);
  let used = usedTokens(context, agent);
  if (used >= config.threshold / 2) {
    const cleared = planClear(agent.messages, config);
    if (cleared) {
      await context.record([{ type: "context.cleared", data: cleared }]);
      used = usedTokens(context, agentNow(context));
    }
  }
  if (used >= config.threshold) {
    await compact(context, config, { trigger: "auto" });
  }
}

/** The `compact` call of the agent's last answer, when its result is in and not yet acted on. */
function compactCall(agent: Conversation): CompactInput | undefined {
  const answer = agent.messages.at(-2);
  if (answer?.role !== "assistant" || agent.messages.at(-1)?.role !== "user") return undefined;
  const call = answer.content.find((b) => b.type === "tool_use" && b.name === COMPACT_TOOL);
  return call ? (call.input ?? {}) as CompactInput : undefined;
}

/**
 * Compact the agent's conversation: PreCompact hooks, `compaction.started` (flushed), the
 * summary asked of the model, `compaction.completed`, then what follows it (hooks, the todo list
 * and skills re-injected). An open compaction (a crash mid-way) is completed with its recorded
 * cut, and with its recorded summary when the model had already given it.
 */
async function compact(
  context: StageContext,
  config: CompactionConfig,
  request: CompactRequest,
): Promise<CompactOutcome> {
  let agent = agentNow(context);
  const tokensBefore = usedTokens(context, agent);
  let open = agent.compacting;
  const asked = request.focus ? { focus: request.focus } : {};
  if (!open) {
    const cutIndex = request.trigger === "auto" || request.trigger === "reactive"
      ? planCut(
        agent.messages,
        Math.floor(config.threshold * (request.trigger === "auto" ? 0.25 : 0.1)),
      )
      : agent.messages.length;
    if (cutIndex === null || cutIndex < 1) {
      return {
        compacted: false,
        reason: "there is nothing before the latest exchange to summarise",
      };
    }
    const before = await context.stages.beforeCompact(context, request);
    if (before.events.length > 0) await context.record(before.events);
    if (before.block !== undefined) {
      await context.record([{
        type: "compaction.failed",
        data: {
          trigger: request.trigger,
          message: `blocked by a PreCompact hook: ${before.block}`,
          ...asked,
        },
      }]);
      return { compacted: false, reason: `blocked by a PreCompact hook: ${before.block}` };
    }
    const started = {
      trigger: request.trigger,
      cutIndex,
      cutSeq: agent.messageSeqs[cutIndex] ?? agent.messageSeqs.at(-1) ?? 0,
      tokensBefore,
      ...asked,
      ...(before.instructions.length > 0 ? { instructions: before.instructions } : {}),
    };
    await context.record([{ type: "compaction.started", data: started }]);
    open = { ...started };
  }
  const { trigger, cutIndex, cutSeq } = open;
  let summary = open.summary;
  if (summary === undefined) {
    const asked = await askSummary(context, config, open);
    if (typeof asked !== "string") {
      const message = asked.failure;
      const focus = open.focus ? { focus: open.focus } : {};
      await context.record([{ type: "compaction.failed", data: { trigger, message, ...focus } }]);
      return { compacted: false, reason: message };
    }
    summary = asked;
  }
  agent = agentNow(context);
  const before = agent.messages;
  const after = { messages: [...before], messageSeqs: [...agent.messageSeqs] };
  compactMessages(after, cutIndex, compactedText(summary), 0);
  const base = context.nextRequest();
  const tokensAfter = estimateTokens({ system: base.system, tools: base.tools }) +
    estimateTokens(after.messages);
  const completed: CompactionCompleted = {
    trigger,
    cutIndex,
    cutSeq,
    summary,
    tokensBefore: open.tokensBefore,
    tokensAfter,
  };
  await context.record([{ type: "compaction.completed", data: completed }]);
  const follow: ReinEvent[] = await context.stages.afterCompact(context, completed, before);
  if (follow.length > 0) await context.record(follow);
  return { compacted: true, completed };
}

/** The summary the model gives of the messages before `open`'s cut, or why there is none. */
async function askSummary(
  context: StageContext,
  config: CompactionConfig,
  open: CompactionStarted,
): Promise<string | { failure: string }> {
  const focus = [...(open.focus ? [open.focus] : []), ...(open.instructions ?? [])];
  const reply = await context.askModel(
    "compact",
    () => summaryRequest(context.nextRequest(), open.cutIndex, config.window, focus),
  );
  if (reply === "cancelled") return { failure: "cancelled" };
  if (reply instanceof ModelError) {
    return { failure: `the summary request failed: ${reply.message}` };
  }
  const text = summaryText(reply);
  return text === "" ? { failure: "the model gave no summary" } : text;
}
