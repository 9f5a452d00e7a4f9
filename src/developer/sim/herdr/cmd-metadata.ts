/**
 * `herdr pane report-metadata` (herdr 0.9): a plugin or tool puts presentation metadata on a pane for herdr's
 * sidebar: `--token NAME=VALUE` (repeatable; `--clear-token NAME`), a title, a display agent, state labels, per
 * `--source`, with an optional `--ttl-ms` after which the values fade. Silent on success (herdr's `send_ok_request`);
 * a server error (pane_not_found) is the JSON envelope on stderr, exit 1. The simulator keeps each source's
 * tokens on the pane and shows the unexpired ones as PaneInfo's `tokens` (docs/herdr-cli.md §3.14).
 */
import { HerdrUsage, type ParsedArgs } from "./argv.ts";
import { type Call, type CommandDef, findPane, type Outcome } from "./call.ts";
import type { HPane } from "./types.ts";

const USAGE =
  "herdr pane report-metadata <pane_id> --source ID [--agent LABEL] [--applies-to-source ID] [--title TEXT|--clear-title] [--display-agent TEXT|--clear-display-agent] [--state-label STATUS=TEXT] [--clear-state-labels] [--token NAME=VALUE] [--clear-token NAME] [--seq N] [--ttl-ms N]";

const STATES = ["idle", "working", "blocked", "done", "unknown"];

/** One source's metadata on a pane (stored beside the pane's other state). */
interface PaneMetadata {
  tokens: Record<string, string>;
  title?: string | null;
  display_agent?: string | null;
  state_labels?: Record<string, string>;
  seq?: number;
  /** Epoch ms after which the report no longer shows; null = no TTL. */
  expires_at: number | null;
}

type WithMetadata = HPane & { metadata?: Record<string, PaneMetadata> };

function u64(args: ParsedArgs, name: string): number | undefined {
  const raw = args.values.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new HerdrUsage(`invalid value for --${name}: ${raw}`);
  return Number(raw);
}

function reportMetadata(call: Call): Outcome {
  const a = call.args;
  const source = a.values.get("source")?.trim();
  if (!source) throw new HerdrUsage("missing required --source");
  if (a.values.has("applies-to-source") && !a.values.get("applies-to-source")!.trim()) throw new HerdrUsage("missing value for --applies-to-source");
  const tokens = new Map<string, string | null>();
  for (const t of a.multi.get("token") ?? []) {
    const eq = t.indexOf("=");
    if (eq < 0) throw new HerdrUsage("token must use NAME=VALUE");
    if (eq === 0) throw new HerdrUsage("token name must not be empty");
    tokens.set(t.slice(0, eq), t.slice(eq + 1));
  }
  for (const k of a.multi.get("clear-token") ?? []) tokens.set(k, null);
  const labels: Record<string, string> = {};
  for (const l of a.multi.get("state-label") ?? []) {
    const eq = l.indexOf("=");
    if (eq < 0) throw new HerdrUsage("expected --state-label STATUS=TEXT");
    const st = l.slice(0, eq).trim().toLowerCase();
    if (!STATES.includes(st)) throw new HerdrUsage(`unknown state label: ${st}`);
    labels[st] = l.slice(eq + 1);
  }
  const title = a.values.get("title");
  const display = a.values.get("display-agent");
  const clearTitle = a.bools.has("clear-title");
  const clearDisplay = a.bools.has("clear-display-agent");
  const clearLabels = a.bools.has("clear-state-labels");
  if ((title !== undefined && clearTitle) || (display !== undefined && clearDisplay) || (Object.keys(labels).length > 0 && clearLabels)) {
    throw new HerdrUsage("cannot set and clear the same metadata field");
  }
  if (title === undefined && display === undefined && !Object.keys(labels).length && !tokens.size && !clearTitle && !clearDisplay && !clearLabels) {
    throw new HerdrUsage("missing metadata field to set or clear");
  }
  const seq = u64(a, "seq");
  const ttl = u64(a, "ttl-ms");
  // Wall clock, as PaneInfo judges expiry when it is printed (every read, whoever prints it).
  const now = Date.now();
  call.store.tx((s) => {
    const p = findPane(s, a.pos[0]!) as WithMetadata;
    p.metadata ??= {};
    const all = p.metadata;
    const prev = all[source];
    // A report older than the last one of the same source (by --seq) is not applied.
    if (prev && seq !== undefined && prev.seq !== undefined && seq <= prev.seq) return;
    const live = prev && (prev.expires_at === null || prev.expires_at > now) ? prev : undefined;
    const merged: Record<string, string> = { ...(live?.tokens ?? {}) };
    for (const [k, v] of tokens) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    all[source] = {
      tokens: merged,
      title: clearTitle ? null : (title ?? live?.title ?? null),
      display_agent: clearDisplay ? null : (display ?? live?.display_agent ?? null),
      state_labels: clearLabels ? {} : { ...(live?.state_labels ?? {}), ...labels },
      ...(seq !== undefined ? { seq } : {}),
      expires_at: ttl !== undefined ? now + ttl : null,
    };
  });
  return { silent: true };
}

/** The unexpired tokens of every source on a pane (PaneInfo `tokens`), or null when there are none. */
export function metadataTokens(p: HPane, now: number): Record<string, string> | null {
  const all = (p as WithMetadata).metadata;
  if (!all) return null;
  const out: Record<string, string> = {};
  for (const m of Object.values(all)) if (m.expires_at === null || m.expires_at > now) Object.assign(out, m.tokens);
  return Object.keys(out).length ? out : null;
}

export const METADATA_COMMANDS: Record<string, CommandDef> = {
  "pane report-metadata": {
    spec: {
      usage: USAGE,
      positionals: ["pane_id"],
      required: 1,
      values: ["source", "agent", "applies-to-source", "title", "display-agent", "seq", "ttl-ms"],
      multi: ["token", "clear-token", "state-label"],
      bools: ["clear-title", "clear-display-agent", "clear-state-labels"],
    },
    run: reportMetadata,
  },
};
