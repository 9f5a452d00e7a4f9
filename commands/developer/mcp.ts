/**
 * `mogui mcp [--read-only]`: the command set as MCP tools over stdio (D42). The server (src/developer/mcp/server.ts, the MCP
 * SDK) is imported only when this command runs, so no other command's start-up pays for it.
 */
import { defineCommand } from "../../src/lib/command.ts";

export default defineCommand({
  meta: {
    name: "mcp",
    description: [
      "Serve mogui's commands as MCP tools over stdio (JSON-RPC 2.0, one message per line): one tool per",
      "command, typed from its flags, with its safety hints. A destructive tool never acts on a first call: it",
      "returns the plan and a confirm token, and acts when called again with the token while the plan is",
      "unchanged. Every call is a row of $MOGUI_HOME/mcp-ledger.jsonl (argument values are hashed, never kept).",
    ].join("\n"),
  },
  usage: ["mcp [--read-only]"],
  args: {
    "read-only": { type: "boolean", description: "List and serve only the read-only tools" },
  },
  exits: {
    ok: { code: 0, meaning: "the client closed stdin; the server stopped" },
    usage: { code: 2, meaning: "usage error: an unknown flag (tool-call errors are isError results, never an exit)" },
  },
  notes: ["stdout carries protocol messages only; diagnostics go to stderr. docs/mcp.md registers it with Claude Code, Codex and Cursor."],
  examples: ["mogui mcp", "mogui mcp --read-only"],
  async run({ ctx, args }) {
    const [{ serve }, { main }, { REGISTRY }] = await Promise.all([import("../../src/developer/mcp/server.ts"), import("../main.ts"), import("../index.ts")]);
    await serve({ registry: REGISTRY, main, readOnly: args["read-only"], ctx });
    return "ok";
  },
});
