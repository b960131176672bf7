import type { Envelope, NewEvent } from "../../events/event_types.ts";
import type { Harness } from "../../core/harness.ts";
import type { Mechanism } from "../../core/mechanism.ts";
import { untilFolded } from "../../core/runner/wake.ts";
import { teamsOn } from "../../core/mail/mod.ts";
import { teammateLine, teammatesOf } from "../../core/team/mod.ts";
import {
  answerQuestion,
  type Decided,
  nextQuestion,
  personMail,
  type PersonQuestion,
  personReview,
  stopTeammate,
} from "../../core/team_questions/mod.ts";
import type { Renderer } from "../render/render.ts";
import { paintLine, type Styles } from "../render/style.ts";
import type { LineReader } from "./_line_reader.ts";
import { parseAnswer, questionLines } from "./permission_prompt.ts";
import {
  isTeammateEvent,
  parseMention,
  parsePlanReview,
  teammateCallLine,
  teammateQuestionHeader,
} from "./team_lines.ts";

/** How often a turn started before the wake sources reads in other processes' appends, in ms. */
const FOLLOW_MS = 100;

/** What the team desk of a REPL works with. */
export interface TeamDeskOptions {
  harness: Harness;
  renderer: Renderer;
  reader: LineReader;
  styles: Styles;
  /** The REPL's session and its lead now (`/new` changes them). */
  desk: () => { session: string; lead: string };
  /** A new id for the person's mail. */
  newId?: () => string;
}

/**
 * The team at the lead's REPL: each teammate's activity as one dim line (`alice · bash npm
 * test`), their mail, spawns, stops and protocol requests as their mechanisms render them;
 * `/team` (the roster with status, model and cost) and `/team stop NAME`; `@alice text` (the
 * person's own words as the lead's mail); and the questions teammates wait on the person for (a
 * call to allow, a plan to approve), each answer decided under the log's lock and recorded.
 */
export class TeamDesk {
  readonly #options: TeamDeskOptions;
  readonly #renderers: readonly Mechanism[];

  constructor(options: TeamDeskOptions) {
    this.#options = options;
    this.#renderers = options.harness.mechanisms.filter((m) => m.render !== undefined);
  }

  /** Whether `event` is a teammate's of the REPL's session, shown by {@link show}. */
  shows(event: Envelope): boolean {
    const { harness, desk } = this.#options;
    return isTeammateEvent(harness.state, desk().session, event);
  }

  /** Show a teammate's event: its call as one dim line, else its mechanism's lines. */
  show(event: Envelope): void {
    const { renderer, styles } = this.#options;
    const call = teammateCallLine(event, (tool, input) => this.#summarize(tool, input));
    if (call !== undefined) return renderer.line(styles.dim(call));
    // The question is asked at the prompt instead; its answer is the person's own.
    if (event.type === "question.asked" || event.type === "question.answered") return;
    for (const mechanism of this.#renderers) {
      const lines = mechanism.render?.(event);
      if (lines === undefined) continue;
      for (const line of lines) renderer.line(paintLine(line, styles));
      return;
    }
  }

  /**
   * `/team [stop NAME]`: the roster, or a teammate stopped (its stop line shows it). Returns what
   * to show, if anything.
   */
  async command(args: string): Promise<string | undefined> {
    const { harness, desk, styles } = this.#options;
    const [verb, name] = args.split(/\s+/).filter(Boolean);
    if (verb === undefined) {
      const teammates = teammatesOf(harness.state, desk().session);
      return teammates.length === 0
        ? styles.dim("No teammates in this session")
        : teammates.map(teammateLine).join("\n");
    }
    if (verb !== "stop" || name === undefined) {
      return styles.red(`Unknown /team command "${args}": use /team or /team stop NAME`);
    }
    const error = await this.#decide((state) => stopTeammate(state, desk(), name));
    return error === undefined ? undefined : styles.red(error);
  }

  /** Whether `line` is `@name text` to a teammate of the session (live or not). */
  mentions(line: string): boolean {
    const mention = parseMention(line);
    if (mention === undefined) return false;
    const { harness, desk } = this.#options;
    const wanted = mention.to.toLowerCase();
    return teammatesOf(harness.state, desk().session).some((entry) =>
      entry.name.toLowerCase() === wanted
    );
  }

  /**
   * `@alice text` (see {@link mentions}): the person's words sent to teammate alice as the lead's
   * mail. Returns the error to show, if any.
   */
  async mention(line: string): Promise<string | undefined> {
    const mention = parseMention(line);
    if (mention === undefined) return this.#options.styles.red('Write "@name text"');
    const { desk, styles, newId } = this.#options;
    const id = `person-${(newId ?? (() => crypto.randomUUID()))()}`;
    const error = await this.#decide((state) =>
      personMail(state, desk(), mention.to, mention.text, id)
    );
    return error === undefined ? undefined : styles.red(error);
  }

  /** What a teammate waits on the person for now (a plan only when `plans`), if anything. */
  pending(plans: boolean): PersonQuestion | undefined {
    const { harness, desk } = this.#options;
    return nextQuestion(harness.state, desk().session, { plans });
  }

  /**
   * The next thing a teammate waits on the person for: at once when one waits, else once an
   * event this process folds brings one. Rejects when `signal` aborts.
   */
  next(plans: boolean, signal: AbortSignal): Promise<PersonQuestion> {
    return untilFolded(this.#options.harness, () => this.pending(plans), signal);
  }

  /**
   * Read in what teammates' processes append, while teams are on, until `signal` aborts (a turn
   * before the REPL's wake sources follow the log: a first prompt's, a resumed one's). A failure
   * ends the following quietly: the next append reports it.
   */
  async follow(signal: AbortSignal): Promise<void> {
    const { harness, desk } = this.#options;
    try {
      while (!signal.aborted && teamsOn(harness.state, desk().session)) {
        await harness.store.waitForAppend(harness.store.lastSeq, signal, FOLLOW_MS);
      }
    } catch {
      // Aborted, or the log failed.
    }
  }

  /**
   * Ask the person `question` and record the answer; false when `signal` aborted first (nothing
   * recorded: it is asked again later).
   */
  async ask(question: PersonQuestion, signal: AbortSignal): Promise<boolean> {
    const { renderer, reader, styles, desk } = this.#options;
    renderer.gap();
    if (question.kind === "permission") {
      const { question: asked } = question;
      const { session } = desk();
      const shown = {
        session,
        agent: asked.from,
        callId: asked.id,
        tool: asked.tool,
        input: asked.input,
        asked: asked.asked,
        suggestion: asked.suggestion,
        ...(asked.protectedPath === undefined ? {} : { protectedPath: asked.protectedPath }),
      };
      renderer.line(
        styles.yellow(teammateQuestionHeader(shown, (tool, input) => this.#summarize(tool, input))),
      );
      const call = renderer.callLines(asked.tool, asked.input);
      for (const line of questionLines(shown, call, styles)) renderer.line(line);
      for (;;) {
        const line = await reader.question(styles.bold("❯ "), signal);
        if (line === null && signal.aborted) return false;
        const answer = line === null
          ? { answer: "no" as const, reason: "the person left the session" }
          : parseAnswer(line);
        if (answer !== undefined) {
          await this.#decide((state) => ({
            events: answerQuestion(state, desk(), asked.id, answer),
          }));
          return true;
        }
        renderer.line(styles.dim('Answer 1, 2 or 3 (3 with a reason: "3 use pnpm instead")'));
      }
    }
    const { request } = question;
    renderer.line(styles.yellow(`${request.from} asks to approve this plan:`));
    for (const line of (request.plan ?? "").trimEnd().split("\n")) renderer.line(`  ${line}`);
    renderer.line(styles.dim('y / n + feedback ("n add a test first")'));
    for (;;) {
      const line = await reader.question(styles.bold("❯ "), signal);
      if (line === null && signal.aborted) return false;
      const review = line === null
        ? { approve: false, feedback: "the person left the session" }
        : parsePlanReview(line);
      if (review !== undefined) {
        const error = await this.#decide((state) =>
          personReview(state, desk(), request.id, review)
        );
        if (error !== undefined) renderer.line(styles.red(error));
        return true;
      }
      renderer.line(styles.dim('Answer y, or n with feedback ("n add a test first")'));
    }
  }

  /** Append what `decide` decides on the caught-up state, under the lock; its error, if any. */
  async #decide(decide: (state: Harness["state"]) => Decided): Promise<string | undefined> {
    const { harness } = this.#options;
    let error: string | undefined;
    await harness.store.appendDecided(() => {
      const decided = decide(harness.state);
      if ("error" in decided) {
        error = decided.error;
        return [] as NewEvent[];
      }
      return decided.events;
    });
    return error;
  }

  #summarize(tool: string, input: unknown): string {
    const found = this.#options.harness.findTool(tool);
    try {
      return found ? found.summarize(input) : JSON.stringify(input);
    } catch {
      return JSON.stringify(input);
    }
  }
}
