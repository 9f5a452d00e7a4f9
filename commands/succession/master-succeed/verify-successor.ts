import { ARGS } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";
import { printDoc } from "../../../src/lib/output.ts";
import { successionRun } from "../_shared.ts";
import { readJsonFile } from "../../../src/succession/master/io.ts";
import { verifySuccessor } from "../../../src/succession/master/verify.ts";

export default defineCommand({
  meta: {
    name: "master-succeed verify-successor",
    description: [
      "Grade a successor's recovery report (what `mogui master-recover --json` prints): any MISS step is",
      "FAILED; otherwise PASS when open tracks were recited (step 6 OK), the baseline matched (step 2-3 OK or",
      "absent) and monitors were re-armed (step 5 OK), PARTIAL for one or two of those, FAILED for none.",
    ].join("\n"),
  },
  usage: ["master-succeed verify-successor --report <file> [--json]"],
  args: {
    report: { type: "string", valueHint: "file", required: true, description: "Recovery report JSON" },
    json: ARGS.json,
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "graded (PASS, PARTIAL or FAILED is in the JSON)" },
    usage: { code: 2, meaning: "usage; report unreadable or not a JSON object" },
  },
  examples: ["mogui master-recover --charter C.md --handoff H.md --json > report.json && mogui master-succeed verify-successor --report report.json"],
  run: successionRun(async ({ ctx, args }) => {
    const report = readJsonFile(ctx, args.report, "master-succeed verify-successor");
    printDoc(ctx, verifySuccessor(report), args.json);
    return "ok";
  }),
});
