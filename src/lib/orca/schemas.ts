/**
 * valibot schemas for what Orca prints (DECISIONS D4): the real envelope `{id, ok, result, _meta}` with lowercase
 * statuses and `assignee_handle`, and the legacy flat shape (`dispatch_id`, `terminal_id`, `worktree_path`,
 * uppercase statuses) that older mogui fixtures document. Loose objects: unknown keys are kept, never rejected.
 */
import * as v from "valibot";

const optStr = v.optional(v.nullable(v.string()));

export const ErrorEnvelope = v.looseObject({
  ok: v.literal(false),
  error: v.looseObject({ code: v.string(), message: v.optional(v.string(), ""), data: v.optional(v.unknown()) }),
});

export const OkEnvelope = v.looseObject({
  ok: v.literal(true),
  result: v.looseObject({}),
});

export const DispatchRow = v.looseObject({
  id: v.string(),
  task_id: optStr,
  run_id: optStr,
  status: v.string(),
  assignee_handle: optStr,
  process_incarnation: optStr,
});

export const LegacyDispatch = v.looseObject({
  dispatch_id: v.string(),
  task_id: optStr,
  terminal_id: optStr,
  status: v.string(),
  worktree_path: optStr,
});

export const DispatchShowResult = v.looseObject({
  dispatch: v.nullable(v.union([DispatchRow, LegacyDispatch])),
});

const TaskRow = v.looseObject({
  id: v.string(),
  status: v.optional(v.string(), ""),
  dispatch_id: optStr,
  assignee_handle: optStr,
});

export const TaskListResult = v.looseObject({ tasks: v.array(TaskRow) });

const TerminalSummary = v.looseObject({
  handle: v.string(),
  worktreeId: optStr,
  worktreePath: optStr,
  title: optStr,
});

export const TerminalShowResult = v.looseObject({ terminal: TerminalSummary });
export const TerminalListResult = v.looseObject({ terminals: v.array(TerminalSummary) });

export const TerminalCloseResult = v.looseObject({
  close: v.looseObject({ handle: optStr, ptyKilled: v.optional(v.boolean()) }),
});

export const TerminalWaitResult = v.looseObject({
  wait: v.looseObject({
    handle: optStr,
    condition: optStr,
    satisfied: v.boolean(),
    status: v.optional(v.string(), "unknown"),
    exitCode: v.optional(v.nullable(v.number()), null),
    exitCause: optStr,
    blockedReason: optStr,
  }),
});

export const TerminalSendResult = v.looseObject({
  send: v.looseObject({
    handle: optStr,
    accepted: v.boolean(),
    bytesWritten: v.optional(v.number()),
    refusedReason: optStr,
  }),
});

export type TaskRowT = v.InferOutput<typeof TaskRow>;
export type TerminalSummaryT = v.InferOutput<typeof TerminalSummary>;
export type TerminalWaitT = v.InferOutput<typeof TerminalWaitResult>["wait"];
export type TerminalSendT = v.InferOutput<typeof TerminalSendResult>["send"];
