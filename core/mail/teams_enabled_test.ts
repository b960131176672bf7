import assert from "node:assert/strict";
import type { SettingsFileRead, SettingsSnapshot } from "../../events/event_types.ts";
import type { State } from "../state/state.ts";
import { TEAMS_ENV, teamsEnabled, teamsOn } from "./teams_enabled.ts";

/** A state whose session s1 recorded `snapshot`. */
function stateWith(snapshot: SettingsSnapshot | null): State {
  return { sessions: { byId: { s1: { settings: snapshot } }, order: ["s1"] } } as unknown as State;
}

function file(scope: SettingsFileRead["scope"], settings: unknown): SettingsFileRead {
  return { scope, path: `/${scope}/settings.json`, text: JSON.stringify(settings) };
}

function snapshot(
  sources: SettingsFileRead[],
  extra: Partial<SettingsSnapshot> = {},
): SettingsSnapshot {
  return { sources, flags: {}, home: "/h", interactive: false, env: {}, ...extra };
}

Deno.test("teams are on by Claude Code's variable (environment first, then a settings env block) or rein's setting", () => {
  const on = (s: SettingsSnapshot) => teamsEnabled(stateWith(s), "s1");
  assert.equal(on(snapshot([])), false);
  for (const value of ["1", "true", "YES", "on"]) {
    assert.equal(on(snapshot([], { env: { [TEAMS_ENV]: value } })), true, value);
  }
  assert.equal(on(snapshot([], { env: { [TEAMS_ENV]: "0" } })), false);
  assert.equal(on(snapshot([file("user", { env: { [TEAMS_ENV]: "1" } })])), true);
  assert.equal(on(snapshot([file("project", { teams: { enabled: true } })])), true);
  // The environment says no: rein's setting does not turn teams on over it.
  assert.equal(
    on(snapshot([file("user", { teams: { enabled: true } })], { env: { [TEAMS_ENV]: "0" } })),
    false,
  );
  // The highest file that says decides.
  assert.equal(
    on(snapshot([
      file("local", { teams: { enabled: false } }),
      file("user", { teams: { enabled: true } }),
    ])),
    false,
  );
  assert.equal(teamsEnabled(stateWith(null), "s1"), false);
});

Deno.test("an untrusted folder's own settings do not turn teams on; the person's do", () => {
  const on = (s: SettingsSnapshot) => teamsEnabled(stateWith(s), "s1");
  const untrusted = { trusted: false };
  assert.equal(on(snapshot([file("project", { teams: { enabled: true } })], untrusted)), false);
  assert.equal(
    on(snapshot([file("project", { env: { [TEAMS_ENV]: "1" } })], untrusted)),
    false,
  );
  assert.equal(on(snapshot([file("user", { teams: { enabled: true } })], untrusted)), true);
});

Deno.test("mail is on only in a session recorded with the teams feature", () => {
  const env = { env: { [TEAMS_ENV]: "1" } };
  assert.equal(teamsOn(stateWith(snapshot([], { ...env, features: ["teams"] })), "s1"), true);
  assert.equal(teamsOn(stateWith(snapshot([], { ...env, features: ["todos"] })), "s1"), false);
  // Recorded before the features list: derived, without teams.
  assert.equal(teamsOn(stateWith(snapshot([], env)), "s1"), false);
});
