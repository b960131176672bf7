#!/usr/bin/env node
// PostToolUse (Write|Edit): records which files changed, reading tool_response.filePath.
const fs = require("fs");
const path = require("path");
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  const file = input.tool_response.filePath;
  const rel = path.relative(process.env.CLAUDE_PROJECT_DIR, file);
  fs.appendFileSync(
    path.join(process.env.CLAUDE_PROJECT_DIR, ".claude", "edited-files.txt"),
    `${input.hook_event_name} ${input.tool_name} ${rel} ${input.tool_response.type ?? "-"}\n`,
  );
});
