/** End-to-end cases for the core family. */
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { tempDir } from "../../helpers/paths.ts";

export const cases: FamilyCases = {
  "worker-reap": { argv: ["worker-reap", "--unreaped", "--json"], code: 0, stdout: /^\{"ledger":".*","count":0,"unreaped":\[\]\}\n$/, env: () => e2eEnv({ MOGUI_HOME: tempDir() }) },
  demo: { argv: ["demo"], code: 0, stdout: /\n4\. Nothing is left to reap\n[\s\S]*"event":"reap"[\s\S]*\nDemo complete\.\n$/ },
  mcp: {
    argv: ["mcp"],
    code: 0,
    stdin: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "0" } } })}\n`,
    stdout: /^\{"result":\{"protocolVersion":"2025-06-18",.*"serverInfo":\{"name":"mogui","version":"[^"]+"\}.*\},"jsonrpc":"2\.0","id":1\}\n$/,
    env: () => e2eEnv({ MOGUI_HOME: tempDir() }),
  },
  "sim orca": { argv: ["sim", "orca", "status", "--json"], code: 0, stdout: /"state": "not_running"/ },
  sim: { argv: ["sim", "--help"], code: 0, stdout: /\n {2}orca: +[\s\S]*\n {2}install-shims: +[\s\S]*\n {2}herdr: +/ },
  "sim install-shims": {
    get argv() {
      return ["sim", "install-shims", join(tempDir(), "bin")];
    },
    code: 0,
    stdout: /^wrote \/.*\/bin\/orca\nwrote .*\/orca-dev\nwrote .*\/orca-ide\nwrote .*\/herdr\n$/,
  },
};
