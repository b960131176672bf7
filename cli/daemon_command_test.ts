import assert from "node:assert/strict";
import { eventFactory, startedData } from "../testing/event_factory.ts";
import { emptyCatalog, evolveCatalog } from "../core/state/catalog.ts";
import { DAEMON_AGENT, daemonCommand, latestDaemonSession } from "./daemon_command.ts";

Deno.test("a daemon continues the daemon session with the latest activity", () => {
  const catalog = emptyCatalog();
  const old = eventFactory("old", DAEMON_AGENT);
  const person = eventFactory("person", "lead");
  const recent = eventFactory("recent", DAEMON_AGENT);
  const events = [
    old("session.started", startedData()),
    recent("session.started", startedData()),
    person("session.started", startedData()),
    old("user.prompted", { text: "[Scheduled] check" }),
  ];
  events.forEach((event, i) => evolveCatalog(catalog, { ...event, seq: i + 1 }));
  assert.equal(latestDaemonSession(catalog), "old");
  assert.equal(latestDaemonSession(emptyCatalog()), undefined);
});

Deno.test("rein daemon refuses conflicting flags and a missing key before opening the log", async () => {
  const io = {
    stdout: { write() {} },
    stderr: { write() {} },
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
  };
  const env = (vars: Record<string, string>) => ({
    get: (name: string) => vars[name],
    toObject: () => vars,
  });
  await assert.rejects(
    daemonCommand({ resume: "x", newSession: true }, env({ ANTHROPIC_API_KEY: "k" }), io),
    /Use only one of --resume and --new-session/,
  );
  await assert.rejects(daemonCommand({}, env({}), io), /No API key/);
  await assert.rejects(
    daemonCommand({ permissionMode: "yolo" }, env({ ANTHROPIC_API_KEY: "k" }), io),
    /Invalid --permission-mode "yolo"/,
  );
});
