/**
 * `mogui hook secret-alert` (issue 25 §3): a Claude Code PostToolUse hook that scans each tool call (its result and
 * its input) with the redaction engine. When a secret appears it tells the session (`decision: "block"` with a
 * `reason`, and `hookSpecificOutput.additionalContext`) and the operator (`systemMessage`), every secret masked; it
 * hands Claude Code the tool output with the secrets masked (`updatedMCPToolOutput` for an MCP tool,
 * `updatedToolOutput` for any tool, which Claude Code honours from v2.1.121 on; older versions ignore the field, so
 * the secret is already in the transcript and the advice is to rotate it); and it appends an alert row (rule, line,
 * content fingerprint, never the secret) to `$MOGUI_HOME/secret-alerts.jsonl`.
 */
import { join } from "node:path";
import type { Ctx } from "../../lib/context.ts";
import { moguiHome } from "../../lib/context.ts";
import { appendRow } from "../../lib/ledger.ts";
import { compileRules, contentFingerprint, secretSpans, type Compiled } from "./engine.ts";
import { maskGeneric, maskSecret } from "./mask.ts";
import { loadRules } from "./rules.ts";
import { errorMessage } from "../../lib/errors.ts";

const ALERT_LEDGER = "secret-alerts.jsonl";

interface Alert {
  where: "tool_response" | "tool_input";
  rule: string;
  line: number;
  fingerprint: string;
}

export interface AlertResult {
  alerts: Alert[];
  /** The tool response with every secret masked (same shape: strings masked in place). */
  maskedResponse: unknown;
  /** One masked line per alert, for the session and the operator. */
  lines: string[];
}

let compiled: Compiled | null = null;

export function alertRules(ctx: Ctx, root: string): Compiled {
  if (compiled) return compiled;
  const rules = loadRules(ctx, root, { requireExtra: false, skipLegacyCheck: true }, () => {});
  return (compiled = compileRules(rules.set.rules, rules.set.allowlists));
}

/** Masks the secrets of one string; records an alert per (line, rule). */
function maskString(c: Compiled, where: Alert["where"], s: string, alerts: Alert[], lines: string[]): string {
  if (s.length < 8) return s;
  const { text, spans } = secretSpans(c, where, s);
  if (spans.length === 0) return s;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  const seen = new Set<string>();
  for (const sp of spans) {
    const line = text.slice(0, sp.start).split("\n").length;
    // One alert per (line, rule), and one per span: a generic rule reporting a span a specific rule found adds none.
    const key = `${line}\0${sp.rule}`;
    const span = `${sp.start}:${sp.end}`;
    if (!seen.has(key) && !seen.has(span)) {
      seen.add(key);
      seen.add(span);
      alerts.push({ where, rule: sp.rule, line, fingerprint: contentFingerprint(where, sp.rule, text.slice(sp.start, sp.end), 1) });
      const lineStart = text.lastIndexOf("\n", sp.start - 1) + 1;
      const lineEnd = text.indexOf("\n", sp.start);
      const ctxLine = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
      const rel = sp.start - lineStart;
      const shown = maskGeneric(ctxLine.slice(0, rel) + maskSecret(text.slice(sp.start, sp.end)) + ctxLine.slice(Math.min(ctxLine.length, sp.end - lineStart)));
      lines.push(`${where}:${line} [${sp.rule}] ${shown.length > 160 ? `${shown.slice(0, 157)}...` : shown}`);
    }
    if (sp.end <= at) continue;
    out += text.slice(at, Math.max(at, sp.start)) + maskSecret(text.slice(sp.start, sp.end));
    at = sp.end;
  }
  return maskGeneric(out + text.slice(at));
}

/** Walks a JSON value, masking each string leaf; keys are kept. */
function maskValue(c: Compiled, where: Alert["where"], v: unknown, alerts: Alert[], lines: string[], depth = 0): unknown {
  if (typeof v === "string") return maskString(c, where, v, alerts, lines);
  if (depth > 64 || v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => maskValue(c, where, x, alerts, lines, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = maskValue(c, where, x, alerts, lines, depth + 1);
  return out;
}

export function scanToolCall(c: Compiled, input: Record<string, unknown>): AlertResult {
  const alerts: Alert[] = [];
  const lines: string[] = [];
  // Claude Code sends `tool_response`; some hosts and older builds say `tool_output`.
  const response = input.tool_response ?? input.tool_output;
  const maskedResponse = maskValue(c, "tool_response", response, alerts, lines);
  maskValue(c, "tool_input", input.tool_input, alerts, lines);
  return { alerts, maskedResponse, lines };
}

/** The documented PostToolUse JSON output for a call with alerts. */
export function hookOutput(toolName: string, r: AlertResult): Record<string, unknown> {
  const rules = [...new Set(r.alerts.map((a) => a.rule))].join(", ");
  const head = `secret-alert: ${r.alerts.length} secret(s) in the ${toolName || "tool"} call (${rules}); shown masked`;
  const advice = "Do not repeat, copy, commit or send these values; use them only by reference (an env var, a secret store), and tell the operator to rotate them: they may already be in the session transcript.";
  const detail = r.lines.slice(0, 10).join("\n");
  const specific: Record<string, unknown> = { hookEventName: "PostToolUse", additionalContext: `${head}:\n${detail}\n${advice}` };
  if (r.alerts.some((a) => a.where === "tool_response")) {
    const masked = typeof r.maskedResponse === "string" ? r.maskedResponse : JSON.stringify(r.maskedResponse);
    if (toolName.startsWith("mcp__")) specific.updatedMCPToolOutput = r.maskedResponse;
    specific.updatedToolOutput = masked;
  }
  return { decision: "block", reason: `${head}:\n${detail}\n${advice}`, systemMessage: `${head} — rotate: ${rules}`, hookSpecificOutput: specific };
}

export function appendAlert(ctx: Ctx, row: Record<string, unknown>): string | null {
  try {
    appendRow(join(moguiHome(ctx), ALERT_LEDGER), row, { lockTimeoutMs: 2000 });
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}
