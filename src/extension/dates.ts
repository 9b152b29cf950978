// Dates as the extension shows them everywhere (the explorer's hover, the query results): `2025-10-11 20:15`, in the
// user's own time zone. Free of `vscode`, so webviews bundle it too.

/** `2025-10-11T18:15:56.824Z` as people read it, local time; undefined when the text is not a date. */
export function readableTime(iso: string): string | undefined {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
