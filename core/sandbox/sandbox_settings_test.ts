import assert from "node:assert/strict";
import { DEFAULT_SANDBOX_SETTINGS, sandboxSettings } from "./sandbox_settings.ts";

const cases: { given: unknown; items: object; diagnostics: string[] }[] = [
  { given: undefined, items: DEFAULT_SANDBOX_SETTINGS, diagnostics: [] },
  { given: {}, items: DEFAULT_SANDBOX_SETTINGS, diagnostics: [] },
  {
    given: { enabled: false, required: true, network: false },
    items: { enabled: false, required: true, network: false },
    diagnostics: [],
  },
  {
    given: { failIfUnavailable: true },
    items: { ...DEFAULT_SANDBOX_SETTINGS, required: true },
    diagnostics: [],
  },
  {
    given: "on",
    items: DEFAULT_SANDBOX_SETTINGS,
    diagnostics: ['Invalid settings: sandbox must be an object, found "on"'],
  },
  {
    given: { enabled: "no", network: 0 },
    items: DEFAULT_SANDBOX_SETTINGS,
    diagnostics: [
      'Invalid settings: sandbox.enabled must be true or false, found "no"',
      "Invalid settings: sandbox.network must be true or false, found 0",
    ],
  },
  {
    given: { network: { allowedDomains: ["github.com"] } },
    items: DEFAULT_SANDBOX_SETTINGS,
    diagnostics: [
      "Unsupported settings: sandbox.network as an object (Claude Code's domain filter) is not " +
      'supported by rein, so commands keep the network; set "network": false to cut it',
    ],
  },
  {
    given: { excludedCommands: ["docker"], netwrok: false },
    items: DEFAULT_SANDBOX_SETTINGS,
    diagnostics: [
      "Unsupported settings: sandbox.excludedCommands is not supported by rein, ignored",
      "Unknown settings: sandbox.netwrok is not a sandbox setting, ignored",
    ],
  },
];

Deno.test("sandboxSettings reads each field, keeps defaults for bad values and says why", () => {
  for (const { given, items, diagnostics } of cases) {
    assert.deepEqual(sandboxSettings(given), { items, diagnostics }, JSON.stringify(given));
  }
});
