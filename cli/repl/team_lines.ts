import type { Envelope } from "../../events/event_types.ts";
import type { State } from "../../core/state/state.ts";
import { rosterKey, rosterOf } from "../../core/team/mod.ts";
import type { PermissionQuestion } from "../../core/permissions/permissions_mechanism.ts";
import { stripControls } from "../render/render.ts";

/** How much of a call's summary a teammate's line shows. */
const SUMMARY_CHARS = 100;

/**
 * Whether `event` is one of a teammate's of `session` (its envelope's agent is a teammate in the
 * roster, or the event is the teammate's spawn): the REPL shows those as teammate lines. Pure.
 */
export function isTeammateEvent(state: State, session: string, event: Envelope): boolean {
  if (event.session !== session) return false;
  if (event.type === "agent.spawned") return event.data.teammate !== undefined;
  return rosterOf(state).byKey[rosterKey(session, event.agent)] !== undefined;
}

/**
 * A teammate's call as one line, `alice · bash npm test` (the call's summary, its first line, cut
 * to 100 characters); undefined for an event that is not a call. Pure.
 */
export function teammateCallLine(
  event: Envelope,
  summarize: (tool: string, input: unknown) => string,
): string | undefined {
  if (event.type !== "tool.requested") return undefined;
  const { name, input } = event.data;
  const summary = oneLine(summarize(name, input));
  return `${event.agent} · ${name}${summary === "" ? "" : ` ${summary}`}`;
}

/**
 * The first line of the person's question about a teammate's call: `alice wants to run
 * \`npm install\`` for a command, `alice wants to use write_file a.txt` otherwise. Pure.
 */
export function teammateQuestionHeader(
  question: Pick<PermissionQuestion, "agent" | "tool" | "input">,
  summarize: (tool: string, input: unknown) => string,
): string {
  const command = question.input["command"];
  if (question.tool === "bash" && typeof command === "string") {
    return `${question.agent} wants to run \`${oneLine(command)}\``;
  }
  const summary = oneLine(summarize(question.tool, question.input));
  return `${question.agent} wants to use ${question.tool}${summary === "" ? "" : ` ${summary}`}`;
}

/** The person's review of a plan: approve or not, and what they said. */
export interface PlanReview {
  approve: boolean;
  feedback?: string;
}

/**
 * The person's answer to "approve this plan": `y`/`yes` (optionally with a note), `n`/`no` with
 * the feedback (`n add a test first`); undefined for anything else. Pure.
 */
export function parsePlanReview(line: string): PlanReview | undefined {
  const match = /^\s*(y|yes|n|no)(?=$|[\s:,])[\s:,]*(.*)$/is.exec(line);
  if (!match) return undefined;
  const approve = (match[1] ?? "").toLowerCase().startsWith("y");
  const feedback = (match[2] ?? "").trim();
  return feedback === "" ? { approve } : { approve, feedback };
}

/**
 * `@alice fix the test` as the person's mail: the name and the text; undefined when the line is
 * not one (no name, or no text). Pure.
 */
export function parseMention(line: string): { to: string; text: string } | undefined {
  const match = /^@([A-Za-z0-9][A-Za-z0-9_-]*)[\s:,]+(\S.*)$/s.exec(line.trim());
  if (!match) return undefined;
  return { to: match[1] ?? "", text: (match[2] ?? "").trim() };
}

function oneLine(text: string): string {
  const line = stripControls(text.split("\n")[0] ?? "").trim();
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}
