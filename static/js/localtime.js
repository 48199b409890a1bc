// Every time on a page in the viewer's own time zone, named: the server writes
// <time datetime="2026-12-02T20:04:00+00:00">2 Dec 2026, 20:04 UTC</time> (readable without
// this script) and this rewrites its text as "2 Dec 2026, 21:04 CET" where the viewer is in
// Paris. A text to download cannot be rewritten: its link names the viewer's zone instead.

const FORMAT = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

/** A time (a Date or an ISO string) as the viewer reads it: "2 Dec 2026, 21:04 CET". */
export function localTime(at) {
  return FORMAT.format(typeof at === "string" ? new Date(at) : at);
}

/** The viewer's IANA time zone ("Europe/Paris"), for a text the server writes for them. */
export function viewerZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
}

/**
 * Rewrite the times inside `root` (the whole page by default).
 * @param {ParentNode} [root]
 */
export function showLocalTimes(root = document) {
  for (const element of root.querySelectorAll("time[datetime]")) {
    const at = new Date(element.getAttribute("datetime") ?? "");
    if (Number.isNaN(at.getTime())) continue;
    element.textContent = localTime(at);
    // The exact instant in UTC stays one hover or long press away.
    element.setAttribute("title", at.toISOString().replace("T", " ").slice(0, 16) + " UTC");
  }
}

showLocalTimes();
