// SessionStart: tells the user and the model where the session started, in JSON.
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify({
  systemMessage: `Hooks loaded from ${Deno.env.get("CLAUDE_PROJECT_DIR")}`,
  suppressOutput: true,
  hookSpecificOutput: {
    hookEventName: "SessionStart",
    additionalContext: `Session ${input.session_id} (${input.source}) on ${input.model}`,
  },
}));
