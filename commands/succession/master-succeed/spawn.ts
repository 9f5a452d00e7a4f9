import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { successionRun } from "../_shared.ts";
import { SPAWN_FAILURES, SpawnFailure } from "../../../src/succession/master/errors.ts";
import { readText } from "../../../src/succession/master/io.ts";
import { spawnSuccessor } from "../../../src/succession/master/spawn.ts";
import { SELECTOR_HINT } from "../../../src/succession/master/spawn-match.ts";
import { defaultModel } from "../../../src/succession/master/startup.ts";

const NAME = "master-succeed spawn";

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Spawn the successor (or founding) master in an Orca terminal, fail-closed: snapshot the requested",
      "worktree, create the terminal with the agent's startup command, check the reply's worktreeId against the",
      "selector (and --expected-placement), then prove the handle is live, new and connected (or adopt the ONE",
      "new terminal carrying the pane title). On a mismatch it closes only a terminal it can prove it created.",
    ].join("\n"),
  },
  usage: ["master-succeed spawn --workspace-selector <sel> (--kickoff-text <text> | --kickoff-file <file>) --root <dir> --title <title>", "    [--model <id>] [--agent <name>] [--expected-placement <sel>] [--dry-run] [--json]"],
  args: {
    "workspace-selector": { type: "string", valueHint: "sel", required: true, description: "Orca worktree selector for the seat (id:<repoId>::<path>, id:folder:<uuid>)" },
    "kickoff-text": { type: "string", valueHint: "text", description: "First prompt for the successor" },
    "kickoff-file": { type: "string", valueHint: "file", description: "Read the first prompt from a file" },
    root: { type: "string", valueHint: "dir", required: true, description: "The agent's working directory" },
    title: { type: "string", valueHint: "title", required: true, description: "Pane title (also how a reissued handle is recognised)" },
    model: { type: "string", valueHint: "id", description: "Launch model (defaults: claude claude-fable-5, grok grok-4.5, codex gpt-5.6-sol)" },
    agent: { type: "string", valueHint: "name", description: "claude, claude-code, grok, codex, cursor, agy or an executable name", default: "claude" },
    "expected-placement": { type: "string", valueHint: "sel", description: "Independent expectation for the reply's worktreeId (exit 26 on mismatch)" },
    "dry-run": { type: "boolean", description: "Print the plan; no orca call at all" },
    json: ARGS.json,
  },
  rules: { exactlyOne: [["kickoff-text", "kickoff-file"]] },
  // The 20-26 failures are thrown from src/succession/master/spawn.ts as a SpawnFailure naming its row (SPAWN_FAILURES).
  mcp: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  exits: {
    ok: { code: 0, meaning: "DRY_RUN, or CREATED and verified (MATCH or MATCH_REISSUED)" },
    usage: { code: 2, meaning: "usage; a required value empty; --model missing for an agent without a default" },
    ...SPAWN_FAILURES,
  },
  notes: [`Selector forms${SELECTOR_HINT.slice(1).replace("Accepted selector forms are", ":")}`],
  examples: ['mogui master-succeed spawn --workspace-selector id:folder:<uuid> --kickoff-text "Founding master boot" --root . --title "Founding master boot" --dry-run --json'],
  run: successionRun(async ({ ctx, args, fail }) => {
    const agent = args.agent.trim();
    const model = args.model ?? defaultModel(agent);
    if (!model) return fail("usage", `--model is required for agent ${agent}`);
    const kickoff = args["kickoff-file"] !== undefined ? readText(ctx, args["kickoff-file"], NAME) : (args["kickoff-text"] ?? "");
    const report = await spawnSuccessor(ctx, {
      workspaceSelector: args["workspace-selector"],
      kickoffText: kickoff,
      root: args.root,
      title: args.title,
      model,
      agent,
      expectedPlacement: args["expected-placement"],
      dryRun: args["dry-run"],
    }).catch((e: unknown) => {
      if (e instanceof SpawnFailure) return fail(e.kind, e.message);
      throw e;
    });
    printDoc(ctx, report, args.json);
    return "ok";
  }),
});
