/** The per-agent startup command a successor terminal runs (§5.8); every value shell-quoted like Python's shlex.quote. */
const SAFE = /^[\w@%+=:,./-]+$/;

export function shellQuote(s: string): string {
  if (s === "") return "''";
  if (SAFE.test(s) && !/[^\x00-\x7f]/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

/** Default model per agent when --model is omitted (the CLI's map; other agents must name one). */
const DEFAULT_MODELS: Record<string, string> = {
  claude: "claude-fable-5",
  "claude-code": "claude-fable-5",
  grok: "grok-4.5",
  "grok-build": "grok-4.5",
  codex: "gpt-5.6-sol",
};

export function defaultModel(agent: string): string | undefined {
  return DEFAULT_MODELS[agent.trim().toLowerCase()];
}

export function startupCommand(root: string, model: string, kickoff: string, agent: string): string {
  const r = shellQuote(root);
  const m = shellQuote(model);
  const k = shellQuote(kickoff);
  const head = `cd ${r} && exec`;
  switch (agent.trim().toLowerCase()) {
    case "claude":
    case "claude-code":
      return `${head} claude --model ${m} --dangerously-skip-permissions ${k}`;
    case "grok":
    case "grok-build":
      return `${head} grok --model ${m} --always-approve --cwd ${r} ${k}`;
    case "codex":
      return `${head} codex --model ${m} ${k}`;
    case "cursor":
    case "cursor-agent":
      return `${head} cursor-agent --model ${m} --force --trust ${k}`;
    case "agy":
      return `${head} agy --model ${m} --dangerously-skip-permissions ${k}`;
    default:
      return `${head} ${shellQuote(agent)} --model ${m} ${k}`;
  }
}
