// The table WebSocket with automatic reconnection. On a reconnect the client sends the last
// version it saw, so the server replays the events it missed (or sends a fresh snapshot).
//
// A frozen server or a silent network cut leaves the socket open for minutes with nothing
// coming through, while the others play on. So the page pings, and when no frame at all has
// come within a few seconds of a ping (or of opening the socket), it takes the connection
// for lost and reconnects, as after a close — perhaps to another of the club's processes.
// The server says how often and how long in a `liveness` frame; until then, these.

const PING_MS = 10000;
const TIMEOUT_MS = 5000;
const MAX_BACKOFF_MS = 8000;
// The server closed us for a reason a retry will not cure.
const FINAL_CODES = new Set(["no_spectators", "table_closed", "too_many_connections", "session_ended"]);

export class TableSocket {
  /**
   * @param {number} tableId
   * @param {(frame: object) => void} onFrame
   * @param {(status: "connecting"|"open"|"reconnecting"|"stopped", detail?: string|number) => void} onStatus
   *   (with "reconnecting": the milliseconds until the next try; with "stopped": why)
   * @param {string|null} invite a private table's invite code, from the invite link
   */
  constructor(tableId, onFrame, onStatus, invite = null) {
    this.tableId = tableId;
    this.invite = invite;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.version = null;
    this.backoff = 500;
    this.stopped = false;
    this.ws = null;
    this.pinger = null;
    this.pingMs = PING_MS;
    this.timeoutMs = TIMEOUT_MS;
    // The pending "lost unless a frame comes first" timer.
    this.deadline = null;
    this.ids = 0;
  }

  connect() {
    if (this.stopped) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    if (this.version !== null) params.set("version", String(this.version));
    if (this.invite) params.set("invite", this.invite);
    const query = params.toString() ? `?${params}` : "";
    const ws = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${this.tableId}${query}`);
    this.ws = ws;
    this.onStatus(this.version === null ? "connecting" : "reconnecting");
    // A server that takes the connection but never answers holds it in "connecting" for ever.
    this.expectFrame(ws, this.pingMs + this.timeoutMs);
    ws.addEventListener("open", () => {
      this.backoff = 500;
      this.onStatus("open");
      this.startPinging(ws);
    });
    ws.addEventListener("message", (message) => {
      if (this.ws !== ws) return;
      clearTimeout(this.deadline);
      this.deadline = null;
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === "liveness") {
        this.pingMs = frame.ping_seconds * 1000;
        this.timeoutMs = frame.timeout_seconds * 1000;
        this.startPinging(ws);
        return;
      }
      if (typeof frame.version === "number" && (frame.type === "snapshot" || frame.type === "event")) {
        this.version = frame.version;
      }
      if (frame.type === "error" && FINAL_CODES.has(frame.code)) {
        this.stop(frame.message);
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws || this.stopped) return;
      this.retry();
    });
  }

  /** @param {WebSocket} ws */
  startPinging(ws) {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => {
      if (this.send({ type: "ping" })) this.expectFrame(ws, this.timeoutMs);
    }, this.pingMs);
  }

  /**
   * Unless a frame comes within `ms`, `ws` is lost (an earlier deadline stands).
   * @param {WebSocket} ws
   * @param {number} ms
   */
  expectFrame(ws, ms) {
    if (this.deadline === null) this.deadline = setTimeout(() => this.lost(ws), ms);
  }

  /**
   * Nothing came through in time: leave the socket (its close may itself never complete
   * behind a frozen server, so no one waits for it) and reconnect.
   * @param {WebSocket} ws
   */
  lost(ws) {
    if (this.ws !== ws || this.stopped) return;
    this.ws = null;
    ws.close();
    this.retry();
  }

  /** Try again after the current backoff, which grows up to MAX_BACKOFF_MS. */
  retry() {
    clearInterval(this.pinger);
    clearTimeout(this.deadline);
    this.deadline = null;
    this.onStatus("reconnecting", this.backoff);
    setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  /** Send a message; false when the socket is not open (the caller says so to the user). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an action with a fresh client id; returns the id (or null when offline). */
  act(fields, version) {
    this.ids += 1;
    const id = `c${Date.now().toString(36)}${this.ids}`;
    return this.send({ type: "action", id, version, ...fields }) ? id : null;
  }

  /**
   * Add this browser's share to the coming deal's seed (docs/fair-shuffle.md): 32 bytes from
   * the cryptographic generator, sent as lowercase hex. Returns the hex (null when offline).
   */
  contribute() {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return this.send({ type: "entropy", value }) ? value : null;
  }

  resync() {
    if (this.version !== null) this.send({ type: "resync", version: this.version });
  }

  stop(detail) {
    this.stopped = true;
    clearInterval(this.pinger);
    clearTimeout(this.deadline);
    this.onStatus("stopped", detail);
    this.ws?.close();
  }
}
