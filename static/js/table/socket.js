// The table WebSocket with automatic reconnection. On a reconnect the client sends the last
// version it saw, so the server replays the events it missed (or sends a fresh snapshot).

const PING_MS = 20000;
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
    ws.addEventListener("open", () => {
      this.backoff = 500;
      this.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
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
      clearInterval(this.pinger);
      if (this.ws !== ws || this.stopped) return;
      this.onStatus("reconnecting", this.backoff);
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
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
    this.onStatus("stopped", detail);
    this.ws?.close();
  }
}
