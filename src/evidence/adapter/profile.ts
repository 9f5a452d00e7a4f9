/**
 * Sync CLI profiles (reference §14): how each supported agent CLI is called for one non-interactive prompt. Vendor
 * flags live here and nowhere else; the acceptance loop asks for a profile by name and never spells a vendor.
 * The prompt is always ONE argv element (no shell ever sees it).
 */
export interface SyncCliProfile {
  name: string;
  argv(prompt: string, model: string | null): string[];
}

const withModel = (model: string | null): string[] => (model ? ["--model", model] : []);

const SYNC_CLI_PROFILES: Readonly<Record<string, SyncCliProfile>> = {
  claude: { name: "claude", argv: (p, m) => ["claude", "-p", p, ...withModel(m)] },
  codex: { name: "codex", argv: (p, m) => ["codex", "exec", ...withModel(m), p] },
  "cursor-agent": { name: "cursor-agent", argv: (p, m) => ["cursor-agent", "-p", "--trust", "--force", ...withModel(m), p] },
};

/** Sorted runtime names: claude, codex, cursor-agent. */
export function syncCliRuntimes(): string[] {
  return Object.keys(SYNC_CLI_PROFILES).sort();
}

/** Case-insensitive, trimmed; undefined when the runtime has no sync profile. */
export function resolveSyncCliProfile(name: string): SyncCliProfile | undefined {
  return SYNC_CLI_PROFILES[name.trim().toLowerCase()];
}

class ProposerArgvError extends Error {
  override name = "ProposerArgvError";
}

/** The argv for one proposer call; a blank prompt or an unknown runtime is refused before anything runs. */
export function buildProposerArgv(runtime: string, prompt: string, model: string | null): string[] {
  if (prompt.trim() === "") throw new ProposerArgvError("proposer prompt is empty");
  const profile = resolveSyncCliProfile(runtime);
  if (!profile) throw new ProposerArgvError(`unsupported proposer runtime '${runtime}'; expected one of ${syncCliRuntimes().join(", ")}`);
  return profile.argv(prompt, model);
}
