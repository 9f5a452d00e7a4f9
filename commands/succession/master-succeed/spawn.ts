import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { ExitError } from "../../../src/lib/errors.ts";
import { emit, readText } from "../../../src/succession/master/io.ts";
import { spawnSuccessor } from "../../../src/succession/master/spawn.ts";
import { SELECTOR_HINT } from "../../../src/succession/master/spawn-match.ts";
import { defaultModel } from "../../../src/succession/master/startup.ts";

const NAME = "master-succeed spawn";

export default defineMoguiCommand({
  meta: {
    name: NAME,
    description: [
      "Spawn the successor (or founding) master in an Orca terminal, fail-closed: snapshot the requested",
      "worktree, create the terminal with the agent's startup command, check the reply's worktreeId against the",
      "selector (and --expected-placement), then prove the handle is live, new and connected (or adopt the ONE",
      "new terminal carrying the pane title). On a mismatch it closes only a terminal it can prove it created.",
    ].join("\n"),
  },
  usage: [
    "master-succeed spawn --workspace-selector <sel> (--kickoff-text <text> | --kickoff-file <file>) --root <dir> --title <title>",
    "    [--model <id>] [--agent <name>] [--expected-placement <sel>] [--dry-run] [--json]",
  ],
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
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  rules: { exactlyOne: [["kickoff-text", "kickoff-file"]] },
  notes: [`Selector forms${SELECTOR_HINT.slice(1).replace("Accepted selector forms are", ":")}`],
  examples: [
    'mogui master-succeed spawn --workspace-selector id:folder:<uuid> --kickoff-text "Founding master boot" --root . --title "Founding master boot" --dry-run --json',
  ],
  async run(ctx, args) {
    const agent = ((args.agent as string | undefined) ?? "claude").trim();
    const model = (args.model as string | undefined) ?? defaultModel(agent);
    if (!model) throw new ExitError(2, `--model is required for agent ${agent}`);
    const kickoff = args["kickoff-file"] !== undefined ? readText(ctx, args["kickoff-file"] as string, NAME) : (args["kickoff-text"] as string);
    const report = await spawnSuccessor(ctx, {
      workspaceSelector: args["workspace-selector"] as string,
      kickoffText: kickoff,
      root: args.root as string,
      title: args.title as string,
      model,
      agent,
      expectedPlacement: args["expected-placement"] as string | undefined,
      dryRun: Boolean(args["dry-run"]),
    });
    emit(ctx, report, Boolean(args.json));
    return 0;
  },
});
