import { defineMoguiCommand } from "../../../src/lib/command.ts";
import { emit, readJsonFile } from "../../../src/succession/master/io.ts";
import { verifySuccessor } from "../../../src/succession/master/verify.ts";

export default defineMoguiCommand({
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
    json: { type: "boolean", description: "Compact JSON (default: indented JSON)" },
  },
  examples: ["mogui master-recover --charter C.md --handoff H.md --json > report.json && mogui master-succeed verify-successor --report report.json"],
  async run(ctx, args) {
    const report = readJsonFile(ctx, args.report as string, "master-succeed verify-successor");
    emit(ctx, verifySuccessor(report), Boolean(args.json));
    return 0;
  },
});
