// Stop: makes the agent go on once to run the tests; lets it stop when already going on.
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
if (!input.stop_hook_active) {
  console.log(JSON.stringify({
    decision: "block",
    reason: `Run the tests before stopping (you said: ${input.last_assistant_message})`,
  }));
}
