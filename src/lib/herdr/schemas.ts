/** valibot schemas for what herdr 0.8.x prints (docs/herdr-cli.md §3). Loose objects: unknown keys are kept. */
import * as v from "valibot";

const optStr = v.optional(v.nullable(v.string()));

export const ErrorEnvelope = v.looseObject({
  error: v.looseObject({ code: v.string(), message: v.optional(v.string(), "") }),
  id: v.optional(v.string()),
});

export const OkEnvelope = v.looseObject({ id: v.optional(v.string()), result: v.looseObject({ type: v.string() }) });

const PaneInfo = v.looseObject({
  pane_id: v.string(),
  workspace_id: v.optional(v.string(), ""),
  tab_id: v.optional(v.string(), ""),
  agent: optStr,
  agent_status: v.optional(v.string(), "unknown"),
  cwd: optStr,
  label: optStr,
  terminal_title: optStr,
  terminal_title_stripped: optStr,
  revision: v.optional(v.number(), 0),
});

const AgentInfo = v.looseObject({
  ...PaneInfo.entries,
  name: optStr,
  state_change_seq: v.optional(v.number(), 0),
  interactive_ready: v.optional(v.boolean()),
});

export const PaneList = v.looseObject({ panes: v.array(PaneInfo) });
export const AgentList = v.looseObject({ agents: v.array(AgentInfo) });
export const AgentOne = v.looseObject({ agent: AgentInfo });
export const PaneOne = v.looseObject({ pane: PaneInfo });
export const TabCreated = v.looseObject({ root_pane: PaneInfo });
export const OutputMatched = v.looseObject({ matched_line: v.string() });

export type PaneInfoT = v.InferOutput<typeof PaneInfo>;
export type AgentInfoT = v.InferOutput<typeof AgentInfo>;
