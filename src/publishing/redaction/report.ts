/**
 * Reports of a redaction scan (issue 14): text (the stderr lines), JSON (one document, findings sorted by file, line
 * and rule) and SARIF 2.1.0 (what GitHub code scanning reads). Every format carries findings only as the engine
 * rendered them: masked. A fingerprint is `<file>:<rule>:<hash>:<n>` (engine.ts), the key `--baseline` matches on; the line
 * fingerprint `<file>:<rule>:<line>` (scan.ts) is listed beside it for .gitleaksignore.
 */
import type { Finding } from "./engine.ts";
import { findingLine, lineFingerprint, type ScanReport } from "./scan.ts";

export type ReportFormat = "text" | "json" | "sarif";

export interface ReportMeta {
  version: string;
  mode: string;
  /** Every rule of the scan (SARIF lists them as the driver's rules). */
  rules: Array<{ id: string; description: string }>;
  maxFindings: number;
}

const P = "redaction-scan";

/** The finding lines of the text report (without the verdict header): listed findings, then what was not listed. */
export function textLines(report: ScanReport, meta: ReportMeta): string[] {
  const out = report.findings.map(findingLine);
  if (report.more > 0) out.push(`${P}: ... and ${report.more} more finding(s) not listed (--max-findings ${meta.maxFindings})`);
  return out;
}

/** The blind-spot note: binary files are skipped, never silently. */
export function blindSpotLine(report: ScanReport): string | null {
  if (report.binary === 0) return null;
  const shown = report.binaryFiles.slice(0, 10).join(", ");
  const rest = report.binary - Math.min(10, report.binaryFiles.length);
  return `${P}: note — ${report.binary} binary file(s) not scanned (blind spots): ${shown}${rest > 0 ? `, ... (${rest} more)` : ""}`;
}

function textReport(report: ScanReport, meta: ReportMeta): string {
  const total = report.findings.length + report.more;
  const head = total ? `${P}: FAIL — ${total} finding(s) (fail-closed)` : `${P}: OK — 0 findings`;
  const blind = blindSpotLine(report);
  return `${[head, ...textLines(report, meta), ...(blind ? [blind] : [])].join("\n")}\n`;
}

function jsonFinding(f: Finding): Record<string, unknown> {
  return {
    rule: f.rule,
    description: f.description,
    file: f.file,
    line: f.line,
    column: f.column,
    match: f.match,
    snippet: f.snippet,
    fingerprint: f.fingerprint,
    line_fingerprint: lineFingerprint(f),
    ...(f.decoded ? { decoded: f.decoded } : {}),
  };
}

function jsonReport(report: ScanReport, meta: ReportMeta): string {
  const total = report.findings.length + report.more;
  const doc = {
    tool: { name: "mogui redaction-scan", version: meta.version },
    verdict: total ? "findings" : "clean",
    mode: meta.mode,
    files: report.files,
    bytes: report.bytes,
    commit_messages: report.commitMessages,
    findings_total: total,
    findings_listed: report.findings.length,
    findings_not_listed: report.more,
    suppressed: report.suppressed,
    fingerprint_format: "<file>:<rule>:<hash>:<n>",
    line_fingerprint_format: "<file>:<rule>:<line>",
    blind_spots: { binary_files: report.binary, binary_files_listed: report.binaryFiles },
    findings: report.findings.map(jsonFinding),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/** A commit message has no file: its findings point at `commit/<sha12>` so every result still has a location. */
function artifactUri(file: string): string {
  return file.startsWith("commit:") ? `commit/${file.slice(7)}` : file.split("/").map(encodeURIComponent).join("/");
}

function sarifReport(report: ScanReport, meta: ReportMeta): string {
  const index = new Map(meta.rules.map((r, i) => [r.id, i]));
  const rules = meta.rules.map((r) => ({
    id: r.id,
    name: r.id,
    shortDescription: { text: r.description },
    fullDescription: { text: `${r.description} (mogui redaction-scan rule ${r.id})` },
    defaultConfiguration: { level: "error" },
    properties: { tags: ["security", "secret"] },
  }));
  const results = report.findings.map((f) => ({
    ruleId: f.rule,
    ...(index.has(f.rule) ? { ruleIndex: index.get(f.rule) } : {}),
    level: "error",
    message: { text: `${f.description}${f.decoded ? ` (in decoded ${f.decoded})` : ""}: ${f.match || f.snippet}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(f.file), uriBaseId: "%SRCROOT%" },
          region: { startLine: Math.max(1, f.line), startColumn: Math.max(1, f.column) },
        },
      },
    ],
    partialFingerprints: { "moguiFingerprint/v1": lineFingerprint(f), "moguiFingerprint/v2": f.fingerprint },
  }));
  const doc = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "mogui redaction-scan", semanticVersion: meta.version, version: meta.version, rules } },
        results,
        properties: {
          findingsNotListed: report.more,
          suppressed: report.suppressed,
          binaryFilesSkipped: report.binary,
          binaryFilesListed: report.binaryFiles,
        },
      },
    ],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function renderReport(format: ReportFormat, report: ScanReport, meta: ReportMeta): string {
  return format === "json" ? jsonReport(report, meta) : format === "sarif" ? sarifReport(report, meta) : textReport(report, meta);
}
