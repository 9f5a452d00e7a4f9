/** The environment a `mogui dispatch` e2e run gets: the Orca simulator seeded from `<root>/scenario.json`. */
import { join } from "node:path";
import { e2eEnv } from "./binary.ts";

export const DISPATCH_COORD = "term_11111111-2222-4333-8444-555555555555";

export function dispatchEnv(root: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return e2eEnv({
    HOME: root,
    MOGUI_HOME: home,
    ORCA_SIM_STATE: join(root, "orca-state.json"),
    ORCA_SIM_SCENARIO: join(root, "scenario.json"),
    ORCA_SIM_ROOT: root,
    ORCA_TERMINAL_HANDLE: DISPATCH_COORD,
    MOGUI_MASTER_HOST_RUNTIME: "claude",
    CODEX_ACCOUNTS_DIR: join(root, "accounts"),
    ...extra,
  });
}
