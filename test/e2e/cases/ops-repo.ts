/** End-to-end cases for the template family: one row per command (keyed by the family's command names). */
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

export const cases: FamilyCases = {
  "generate-manifest": { argv: ["generate-manifest", "--check", "--skeleton", join(ROOT, "master-ops")], code: 0, stdout: /^$/ },
  "template check": { argv: ["template", "check", "--ops", join(ROOT, "master-ops"), "--no-template", "--json"], code: 1, stdout: /"unfilled_placeholders":\["AGENTS.md: \{\{WORKSPACE_NAME\}\}"/ }, // the skeleton itself is unfilled
  "template apply": { argv: ["template", "apply", "--ops", tempDir(), "--json"], code: 0, stdout: /^\{"actions":\[\{"action":"planned","path":"AGENTS.md",[\s\S]*"phase":"dry-run"\}\n$/ },
  template: { argv: ["template", "--help"], code: 0, stdout: /check[\s\S]*apply[\s\S]*show/ },
  "template show": { argv: ["template", "show", "TEMPLATE-VERSION"], code: 0, stdout: /^v\d+\.\d+\.\d+\n$/ },
  "onboarding-rehearsal": {
    argv: ["onboarding-rehearsal", "--workspace-root", tempDir(), "--ops-repo", tempDir(), "--json"],
    code: 1,
    stdout: /^\{"failures":\d+,"gaps":2,/,
    env: () => e2eEnv({ MOGUI_HOME: tempDir() }),
  },
  "harness-selfcheck": { argv: ["harness-selfcheck", "--workspace-root", tempDir(), "--ops-repo", tempDir()], code: 2, stdout: /^Seat: FAIL undecided[\s\S]*\nTemplate: /, env: () => e2eEnv({ MOGUI_HOME: tempDir() }) },
};
