/** One line from stdin, for the typed `apply` confirmation (null at EOF). */
export async function readStdinLine(): Promise<string | null> {
  for await (const line of console) return line;
  return null;
}
