import { defineCommand } from "../../src/lib/command.ts";
import { runProbe } from "../../src/publishing/probes/identity.ts";

export default defineCommand({
  meta: {
    name: "model-identity-probe",
    description: [
      "Sample the last assistant turns of the master's transcript and check they all ran on the expected model.",
      "All output is ONE line on stdout: MODEL-PROBE OK | INFO | DRIFT. Anything that cannot prove the model",
      "(no transcript, no assistant turns, an unknown format, a config problem) is DRIFT with exit 2, never a pass.",
    ].join("\n"),
  },
  usage: ["model-identity-probe [--transcript <path>] [--runtime <name>] [--config <path>] [--expect <model>] [--limit <n>]"],
  args: {
    transcript: { type: "string", valueHint: "path", description: "Read this transcript (default: newest match of $MOGUI_TRANSCRIPT_GLOB, else the instance config's glob)" },
    runtime: { type: "string", valueHint: "name", description: "Runtime whose transcript_globs entry to use (default: the master host runtime)" },
    config: { type: "string", valueHint: "path", description: "Instance runtime config (default $INSTANCE_RUNTIME_CONFIG, else $MOGUI_HOME/config/instance-runtime.json)" },
    expect: { type: "string", valueHint: "model", description: "The model every sampled turn must be (default $MODEL_IDENTITY_EXPECT)" },
    // A string, not an `int`: an invalid --limit is the probe's own one-line DRIFT verdict on stdout (fail-closed),
    // not a usage error on stderr.
    limit: { type: "string", valueHint: "n", default: "10", description: "How many of the last assistant turns to sample (default 10)" },
  },
  notes: [
    "Transcripts: Claude Code JSONL and Codex session JSONL. Malformed lines are skipped and counted in the line;\n" +
      "a torn last line is ignored. `<synthetic>` and `<missing>` turns are sampled like any model, but a sample\n" +
      "with no real model is undecidable.",
  ],
  examples: ["mogui model-identity-probe --expect claude-opus-4-1", "mogui model-identity-probe --transcript ~/.claude/projects/ws/abc.jsonl --limit 20"],
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "MODEL-PROBE OK (every sampled turn is the expected model) or INFO (no expectation supplied)" },
    drift: { code: 2, meaning: "MODEL-PROBE DRIFT: another model, an invalid --limit, unconfigured, transcript error, unsupported format, or undecidable (no real model); usage error" },
  },
  async run({ ctx, args }) {
    const rawLimit = args.limit;
    const limit = /^-?\d+$/.test(rawLimit.trim()) ? Number(rawLimit.trim()) : NaN;
    const expectEnv = ctx.env.MODEL_IDENTITY_EXPECT?.trim();
    const r = runProbe(ctx, {
      transcript: args.transcript,
      runtime: args.runtime,
      config: args.config,
      expect: args.expect ?? (expectEnv || undefined),
      limit: Number.isNaN(limit) ? rawLimit : limit,
    });
    ctx.io.stdout(`${r.line}\n`);
    return r.code === 0 ? "ok" : "drift";
  },
});
