/**
 * The two advisory Bash hooks (reference §28.5). They never block: they print one warning line on stderr and
 * exit 0. bash-poll-warn spots hand-rolled poll loops (event waits belong to `mogui orca-wait`);
 * bash-output-trim-warn spots commands whose output can flood the context unless it is filtered.
 */

export const POLL_WARNING = "[bash-poll-warn] hand-rolled poll loop detected - event waits use scripts/orca-wait (charter section 4)";

const LOOP = /\b(while|until)\s+(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))(\s|;|$)/;
const SLEEP = /\bsleep\s+[0-9.]+/;
const POLLED = /\borca(-dev|-ide)?\s+orchestration\s+check\b|\bgit\s+(-C\s+\S+\s+)?rev-parse\b|\bgh\s+pr\s+view\b|\bcurl\b/;

export function pollLoop(command: string): boolean {
  if (LOOP.test(command) && /\bsleep\b/.test(command)) return true;
  return SLEEP.test(command) && POLLED.test(command);
}

const LARGE: [RegExp, string][] = [
  [/\bgh\s+api\s+graphql\b/, "gh api graphql"],
  [/\borca(-dev|-ide)?\s+terminal\s+(list|read)\b/, "orca terminal list/read"],
  [/\bgit\s+(-C\s+\S+\s+)?(log|diff|show)\b/, "git log/diff/show"],
  [/\bpytest\b/, "pytest"],
  [/(^|[\s;&|(])cat\s/, "cat"],
];
const FILTERED = /\|\s*(head|tail|grep|rg|wc|cut|jq|less|python3?)\b|--jq\b|json\.tool|--stat\b|--name-only\b|--oneline\s+-n?\s*\d|\s-n\s*\d+|\s-\d+\b|--max-count/;

/** The large-output pattern a command uses without a filter, or null. */
export function unfilteredLargeOutput(command: string): string | null {
  if (FILTERED.test(command)) return null;
  for (const [re, label] of LARGE) {
    if (!re.test(command)) continue;
    // `cat <<EOF > file` writes a file; `cat x > y` copies: neither floods the context.
    if (label === "cat" && (/<</.test(command) || /cat\s[^|;&]*>/.test(command))) continue;
    return label;
  }
  return null;
}

export function trimWarning(label: string): string {
  // English (issue 26 §2); the original printed this in Korean, and no test of the reference pins its words.
  return `[trim-warn] '${label}' may print a lot of output: filter it with head/tail/grep/--jq/wc/cut and read only what you need (saves context).`;
}
