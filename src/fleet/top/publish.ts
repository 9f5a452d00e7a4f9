/**
 * `--publish-herdr`: each worker's spend, verdict and pushed flag into its herdr pane, for herdr's sidebar:
 * `herdr pane report-metadata <pane> --source mogui --token spend=<v> --token verdict=<v> --token pushed=<v>
 * --ttl-ms <n>` (herdr 0.9). The TTL outlives a few refreshes, so the values fade when top stops. A pane is told
 * again only when a value changed or half the TTL passed; a pane herdr does not list is skipped.
 */
import type { Ctx } from "../../lib/context.ts";
import { HerdrClient, HerdrError } from "../../lib/herdr/client.ts";
import { compact, money } from "./layout.ts";
import type { TopFrame, TopRow } from "./row.ts";

const METADATA_SOURCE = "mogui";

export function tokensOf(r: TopRow, currency: string | null): Record<string, string> {
  return {
    spend: r.spend !== null ? `${currency ?? ""}${currency ? " " : ""}${money(r.spend)}` : r.tokens !== null ? `${compact(r.tokens)} tok` : "-",
    verdict: r.verdict ?? "-",
    pushed: r.pushed === null ? "-" : r.pushed ? "yes" : "no",
  };
}

export function metadataArgs(pane: string, tokens: Record<string, string>, ttlMs: number): string[] {
  return ["pane", "report-metadata", pane, "--source", METADATA_SOURCE, ...Object.entries(tokens).flatMap(([k, v]) => ["--token", `${k}=${v}`]), "--ttl-ms", String(ttlMs)];
}

export class HerdrPublisher {
  private sent = new Map<string, { key: string; at: number }>();

  constructor(
    private readonly ctx: Ctx,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Publish the frame's herdr rows whose pane herdr listed in this refresh (none when herdr was not listed);
   * returns the problems (one line each), never throws on a herdr failure.
   */
  async publish(frame: TopFrame, livePanes: ReadonlySet<string> | null): Promise<string[]> {
    if (!livePanes) return [];
    const client = new HerdrClient(this.ctx, this.timeoutMs);
    const problems: string[] = [];
    const now = this.ctx.now();
    for (const r of frame.rows) {
      if (r.host !== "herdr" || !r.pane || !livePanes.has(r.pane)) continue;
      const tokens = tokensOf(r, frame.totals.currency);
      const key = JSON.stringify(tokens);
      const last = this.sent.get(r.pane);
      if (last && last.key === key && now - last.at < this.ttlMs / 2) continue;
      try {
        await client.run(metadataArgs(r.pane, tokens, this.ttlMs));
        this.sent.set(r.pane, { key, at: now });
      } catch (e) {
        if (!(e instanceof HerdrError)) throw e;
        problems.push(`publish ${r.pane}: ${e.message}`);
        if (e.failure === "missing" || e.herdrCode === "server_not_running") break;
      }
    }
    return problems;
  }
}
