// The live table: one WebSocket feeds snapshots (the viewer's whole view) and events (for
// animations and sounds); every snapshot redraws the felt, the viewer's cards and controls.
// The server decides everything; this page only shows and asks.
import { api, ApiError, requestKey } from "../api.js";
import { chooseAmount } from "../buyin.js";
import { cardElement } from "../cards.js";
import { h, chips, frontEnd, gameNamed, replaceChildrenKeeping } from "../dom.js";
import { t, tn, tp } from "../i18n.js";
import { turnAttention } from "./attention.js";
import { appendChat, appendNotice } from "./chat.js";
import { deckOptions, drawFelt, flyTo, keepTurnInView, placeToward, setFourColour, showTurn } from "./felt.js";
import { HandLog, lastTrickView, timeoutSentence } from "./handlog.js";
import { installShortcuts, labelShortcuts, redrawHand } from "./keys.js";
import { setSound, soundOn, sounds } from "./sound.js";
import { TableSocket } from "./socket.js";
import { WaitingBanner, waitingSentence } from "./waiting.js";

const root = document.getElementById("table-app");
const tableId = Number(root.dataset.tableId);
const chipUnit = root.dataset.chipUnit;
// The game's front end and description, by the table's game (see dom.js).
const game = await frontEnd(root.dataset.game);
const described = gameNamed(root.dataset.game);
// A private table is opened from its invite link: the code goes along to the socket and seat.
const invite = new URLSearchParams(window.location.search).get("invite");
const $ = (id) => document.getElementById(id);

const state = {
  view: null,
  version: -1,
  handNumber: null,
  phase: null,
  stacksBefore: {},
  myTurn: false,
  nextHandAt: null,
  turnEndsAt: null,
  // The last hand played here stays one click away after the next deal (its hand page).
  lastHandId: null,
  // The commitment this browser last contributed to, and the value it sent.
  contribution: null,
  // Display names by username, from every snapshot and result seen here: a player who has
  // stood up since is still named as the others knew them.
  names: new Map(),
  // The last hand's result, kept after the next deal so that "Last hand" can reopen it;
  // the stacks before that hand (for its gains and losses); and whether its panel is
  // shown: "auto" (until the player closes it or the next hand needs the space), "open"
  // (reopened by the player), "closed".
  lastResult: null,
  resultBefore: {},
  resultShown: "closed",
  // Whether the player keeps the last trick in sight (Bourré).
  lastTrickOn: false,
};
// Refusals of a contribution that change nothing for the player (another tab of theirs sent
// one already, or the deal came first): not worth a message.
const QUIET_CODES = new Set(["entropy_already_sent", "entropy_closed"]);
const selected = new Set();

const ctx = {
  selected,
  sounds,
  get cardOptions() {
    return deckOptions();
  },
  rerender: () => render(),
  notice: (text) => appendNotice($("chat-log"), text),
  act(fields) {
    if (!socket.act(fields, state.version)) toast(t("You are offline; reconnecting…"));
  },
  placeToward(el, seat, share) {
    placeToward(el, state.view, seat, share);
  },
  rules() {
    return state.view?.table.rules ?? {};
  },
  displayName(username) {
    return state.names.get(username) ?? username;
  },
  delta(username, after) {
    const before = state.resultBefore[username];
    if (before === undefined || after === undefined || before === after) return null;
    const diff = after - before;
    return h("span", { class: diff > 0 ? "delta up" : "delta down", text: ` (${diff > 0 ? "+" : "−"}${chips(Math.abs(diff))})` });
  },
  flyTrick(cards, winner) {
    const target = document.querySelector(`#seats .seat[data-seat="${winner}"]`);
    if (!target) return;
    const temps = [];
    const els = cards.map((card) => {
      const shown = document.querySelector(`#centre .trick-card[data-card="${card}"]`);
      if (shown) return shown;
      const temp = cardElement(card, ctx.cardOptions);
      temp.classList.add("trick-card", "trick-card--temp");
      $("flying").append(temp);
      temps.push(temp);
      return temp;
    });
    flyTo($("flying"), els, target);
    for (const temp of temps) temp.remove();
  },
};

let toastTimer = null;
function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

let retryTimer = null;

function setConnection(status, detail) {
  const el = $("connection");
  el.dataset.state = status;
  el.textContent = {
    connecting: t("Connecting…"),
    open: t("Connected"),
    reconnecting: t("Reconnecting…"),
    stopped: typeof detail === "string" ? detail : t("Disconnected"),
  }[status];
  showOffline(status, detail);
}

/** While the connection is down, say so where the player looks — over their cards and
 *  controls, not only in the bar at the top (off screen on a phone) — and when the next
 *  try is, counting down. */
function showOffline(status, detail) {
  const banner = $("offline-banner");
  clearInterval(retryTimer);
  if (status === "open" || status === "connecting") {
    banner.hidden = true;
    banner.dataset.reason = "";
    return;
  }
  banner.hidden = false;
  if (status === "stopped") {
    banner.textContent = typeof detail === "string" ? detail : t("Disconnected from the table.");
    return;
  }
  const retryAt = Date.now() + (Number(detail) || 0);
  const tell = () => {
    const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    banner.textContent = seconds
      ? t("Connection lost: trying again in {seconds} s…", { seconds })
      : t("Connection lost: trying again now…");
  };
  tell();
  retryTimer = setInterval(tell, 1000);
}

/** The table's database stopped answering (play is paused: actions are refused until it
 *  is back) or answers again (fresh views follow). Said in the offline banner's place. */
function showStorage(available) {
  const banner = $("offline-banner");
  banner.hidden = available;
  banner.dataset.reason = available ? "" : "storage";
  if (!available) {
    banner.textContent = t("The club's database is not answering: play is paused and resumes by itself. Nothing played is lost.");
  }
}

// ---------------------------------------------------------------- frames

function learnNames(view) {
  for (const seat of view.seats) state.names.set(seat.username, seat.name);
}

/** A hand's result, from its `hand_over` event or a snapshot: kept, and shown at once. */
function keepResult(report) {
  // The engine's own hand_over event (no number) comes first; the table's report follows.
  if (!report || report.number === undefined || report.number === state.lastResult?.number) return;
  for (const [username, name] of Object.entries(report.names ?? {})) state.names.set(username, name);
  state.lastResult = report;
  state.resultBefore = state.stacksBefore;
  state.resultShown = "auto";
  if (report.hand_id) state.lastHandId = report.hand_id;
}

/** The hand in play needs the middle of the felt: cards on it, or betting under way. */
function needsCentre(hand) {
  return Boolean(hand && (hand.trick?.length || hand.tricks?.length || hand.opened));
}

function onSnapshot(frame) {
  const view = frame.view;
  const hand = view.hand;
  learnNames(view);
  keepResult(view.last_result);
  if (hand && hand.number !== state.handNumber) {
    state.handNumber = hand.number;
    selected.clear();
    state.stacksBefore = Object.fromEntries(view.seats.map((s) => [s.username, s.stack]));
  }
  if (hand?.phase !== state.phase) {
    selected.clear();
    state.phase = hand?.phase ?? null;
  }
  const myTurn = Boolean(hand?.legal_actions?.length);
  // The last result gives way when the next hand needs the room: the viewer's new cards
  // are dealt, the viewer must act, or the middle of the felt fills. It stays one click
  // away under "Last hand"; reopened there, it stays until the viewer must act.
  const olderResult = hand && state.lastResult && state.lastResult.number !== hand.number;
  const dealtToMe = Boolean(hand?.hand?.length);
  const makeRoom = state.resultShown === "auto" ? dealtToMe || myTurn || needsCentre(hand) : myTurn && !state.myTurn;
  if (olderResult && makeRoom) state.resultShown = "closed";
  if (myTurn && !state.myTurn) sounds.yourTurn();
  turnAttention(myTurn, view.table.name);
  if (myTurn) {
    // On a phone the controls sit below the felt: bring both into view for each decision
    // (a turn may follow another of mine: the straddles, then the opening).
    const decision = `${hand.number}:${hand.phase}:${JSON.stringify(hand.legal_actions)}`;
    requestAnimationFrame(() => showTurn($("felt"), $("me"), decision));
  }
  state.myTurn = myTurn;
  state.view = view;
  state.version = frame.version;
  root.dataset.version = String(frame.version);
  const now = performance.now();
  state.nextHandAt = view.next_hand_in === null ? null : now + view.next_hand_in * 1000;
  state.turnEndsAt = view.turn_ends_in === null ? null : now + view.turn_ends_in * 1000;
  contribute(view);
  render();
}

// A seated player's browser adds 32 random bytes to every deal as soon as the server has
// committed to its own seed for it (docs/fair-shuffle.md): once per commitment.
function contribute(view) {
  const next = view.next_hand;
  const seat = view.you.seat;
  if (!next || seat === null) return;
  const mine = state.contribution;
  if (mine?.commitment === next.commitment) {
    // The table lists the seats whose share it took: from then on ours must be in the deal.
    if (next.contributed.includes(seat)) mine.taken = true;
    return;
  }
  if (next.contributed.includes(seat)) return; // another tab of ours sent it
  const value = socket.contribute();
  if (value) state.contribution = { commitment: next.commitment, value, taken: false };
}

// When a hand is dealt, a browser whose share the table took checks it is in the deal (one
// sent as the deal began is refused, and rightly missing).
function onNewHand(data) {
  const mine = state.contribution;
  if (mine?.commitment !== data.commitment || !mine.taken) return;
  if (!Object.values(data.contributions ?? {}).includes(mine.value)) {
    toast(t("Your browser's random share is missing from this deal."));
  }
}

// The hand's commitment to the server's seed, shown from the deal: the seed published
// after the hand must hash to it (the hand page checks it).
function renderCommitment(view) {
  const el = $("hand-commitment");
  if (!el) return;
  const value = view.hand?.commitment ?? "";
  el.hidden = !value;
  el.dataset.commitment = value;
  el.title = value ? t("SHA-256 of the server's seed for this hand: {value}", { value }) : "";
  el.textContent = value ? t("Commitment {value}…", { value: value.slice(0, 16) }) : "";
}

/** How the hand log names the seats, the player and whose eyes it is written for. */
function logNames() {
  return { name: seatName, who: ctx.displayName, me: state.view?.you.seat ?? null };
}

function onFrame(frame) {
  switch (frame.type) {
    case "snapshot":
      onSnapshot(frame);
      break;
    case "event":
      if (frame.kind === "new_hand") onNewHand(frame.data);
      game.onEvent(frame, ctx);
      logEvent(frame);
      if (frame.kind === "hand_over") keepResult(frame.data);
      if (frame.kind === "hand_over" && state.view?.you.seat !== null) {
        const me = state.view.seats.find((s) => s.seat === state.view.you.seat);
        const won = me && (frame.data.winner === me.username || (frame.data.pots ?? []).some((p) => p.winner === me.username));
        if (won) sounds.win();
      }
      break;
    case "hand_log":
      handLog.rebuild(frame, logNames());
      break;
    case "suggestion":
      // The reason starts with the move itself ("Lead the ace of spades: …").
      showCoach(t("Suggestion"), frame.reason, frame.action);
      break;
    case "error":
      if (QUIET_CODES.has(frame.code)) break;
      // Refused while the database is away: the banner over the cards says it once.
      if (frame.code === "storage_unavailable") {
        showStorage(false);
        break;
      }
      // At a practice table a refused move is explained where the player is looking.
      if (state.view?.table.practice && frame.ref) showCoach(t("Why not?"), frame.message, null);
      else toast(frame.message);
      if (frame.code === "stale_version") socket.resync();
      break;
    case "chat":
      appendChat($("chat-log"), frame);
      break;
    case "storage":
      showStorage(frame.available);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- practice tables

// What the coach panel says, and for which table version (it goes when the table moves on).
const coach = { title: "", text: "", action: null, version: null };

function showCoach(title, text, action) {
  Object.assign(coach, { title, text, action, version: state.version });
  render();
}

/** The coach's panel (a suggestion, or why a move was refused) and the Suggest button, at
 *  practice tables only; the cards a suggestion names are marked in the player's hand. */
function renderCoach(view) {
  const panel = $("coach");
  if (coach.version !== null && coach.version !== state.version) coach.version = null;
  const shown = view.table.practice && coach.version !== null;
  panel.hidden = !shown;
  if (shown) {
    panel.replaceChildren(h("strong", { text: `${coach.title} ` }), h("span", { text: coach.text }));
    panel.dataset.action = coach.action ? JSON.stringify(coach.action) : "";
    const marked = coach.action?.card ? [coach.action.card] : coach.action?.cards ?? [];
    for (const card of marked) {
      $("my-hand").querySelector(`[data-card="${card}"]`)?.classList.add("is-suggested");
    }
  }
  if (view.table.practice && view.hand?.legal_actions?.length) {
    $("controls").append(h("button", {
      type: "button",
      class: "secondary suggest",
      dataset: { testid: "suggest" },
      text: t("Suggest"),
      onclick: () => {
        if (!socket.send({ type: "suggest" })) toast(t("You are offline; reconnecting…"));
      },
    }));
  }
}

// ---------------------------------------------------------------- the hand log

const handLog = new HandLog({ list: $("hand-log"), heading: $("hand-log-heading") }, game);

/** The name at a seat, as the table shows it now. */
function seatName(seat) {
  return state.view?.seats.find((s) => s.seat === seat)?.name ?? t("Seat {n}", { n: Number(seat) + 1 });
}

function logEvent(frame) {
  if (frame.kind === "hand_over") {
    for (const [username, name] of Object.entries(frame.data.names ?? {})) state.names.set(username, name);
  }
  const timeout = handLog.event(frame, logNames());
  // A timeout is said in the table's notices too: nobody's turn passes in silence.
  if (timeout) ctx.notice(timeout);
}

/** The previous trick of the hand, while the player keeps it in sight. */
function renderLastTrick(view) {
  const button = $("last-trick-toggle");
  const area = $("last-trick");
  const tricks = view.hand?.tricks ?? [];
  button.hidden = !view.hand || !game.keepsTricks;
  button.disabled = !tricks.length;
  button.setAttribute("aria-pressed", String(state.lastTrickOn));
  const shown = state.lastTrickOn && tricks.length ? lastTrickView(view.hand, seatName, ctx.cardOptions) : null;
  area.hidden = !shown;
  area.replaceChildren(...(shown ? [shown] : []));
}

// ---------------------------------------------------------------- drawing

function waitingFor(view) {
  const names = (view.hand?.to_act ?? []).map((seat) => view.seats.find((s) => s.seat === seat)?.name ?? t("seat {n}", { n: seat + 1 }));
  if (!names.length) return "";
  return names.length > 1
    ? tn("Waiting for {n} player to decide.", "Waiting for {n} players to decide.", names.length)
    : t("Waiting for {name}.", { name: names[0] });
}

function renderMine(view) {
  const me = view.you.seat;
  const seat = view.seats.find((s) => s.seat === me);
  let prompt = "";
  let cards = [];
  let controls = [];
  if (me === null) {
    const free = view.seats.length < view.table.seat_count;
    prompt = free ? t("You are watching. Choose an empty seat to join.") : t("You are watching.");
    // Like the players, a spectator is told what the table waits for.
    prompt += ` ${view.hand ? waitingFor(view) : waitingSentence(view, waiting.hooks)}`;
  } else if (view.hand && view.you.dealt_in === false) {
    prompt = waitingFor(view);
  } else if (view.hand && view.hand.hand !== undefined) {
    ({ prompt, cards, controls } = game.myArea(view, ctx));
    if (!prompt) prompt = view.hand.phase === "over" ? t("Hand over.") : waitingFor(view);
  } else if (view.table.status === "closed") {
    prompt = t("This table is closed; your stack is back in your balance.");
  } else if (!view.hand && view.table.status === "paused") {
    prompt = t("The table is paused.");
  } else if (seat?.sitting_out) {
    prompt = seat.sat_out_after ? "" : t("You are sitting out. Press “Come back” to be dealt in.");
  } else if (view.hand) {
    prompt = t("You join at the next hand.") + ` ${waitingFor(view)}`;
  } else {
    prompt = waitingSentence(view, waiting.hooks);
  }
  $("prompt").textContent = prompt;
  $("prompt").classList.toggle("prompt--turn", Boolean(view.hand?.legal_actions?.length));
  const hand = view.hand;
  const moment = hand ? `${hand.number}:${hand.phase}:${hand.tricks?.length ?? 0}:${Boolean(hand.legal_actions?.length)}` : "";
  redrawHand($("my-hand"), cards, moment);
  // Labelled before they are compared with the controls shown, which are labelled.
  const drawn = h("div", {}, ...controls);
  labelShortcuts(drawn);
  replaceChildrenKeeping($("controls"), [...drawn.childNodes]);
}

function closeResult() {
  state.resultShown = "closed";
  render();
}

/** The last hand's result over the felt: drawn once per result (a snapshot between hands
 *  does not reset where the player scrolled it to), shown while `resultShown` says so. */
function renderResult() {
  const panel = $("result");
  const report = state.lastResult;
  const shown = Boolean(report) && state.resultShown !== "closed";
  const wasHidden = panel.hidden;
  panel.hidden = !shown;
  if (!shown) return;
  const key = `${report.number}:${report.hand_id ?? ""}`;
  if (panel.dataset.report !== key) {
    panel.dataset.report = key;
    const timeouts = (report.timeouts ?? []).map((said) => timeoutSentence(ctx.displayName(said.player), said, game));
    panel.replaceChildren(...[
      h("button", { type: "button", class: "result-close", "aria-label": t("Close the result"), title: tp("button", "Close"), text: "×", onclick: closeResult }),
      ...game.result(report, ctx),
      timeouts.length ? h("ul", { class: "result-timeouts", "aria-label": t("Timeouts") }, ...timeouts.map((text) => h("li", { text }))) : null,
      // The link to the hand and the countdown share the panel's foot, in sight however
      // long the result above them (it scrolls inside the panel).
      h("div", { class: "result-foot" },
        report.hand_id ? h("a", { class: "result-link", href: handPage(report.hand_id), text: t("Open this hand") }) : null,
        h("p", { class: "next-hand", id: "next-hand" })),
    ].filter(Boolean));
  }
  // Newly shown: in sight, even when the page was scrolled down to the controls.
  if (wasHidden) requestAnimationFrame(() => panel.scrollIntoView({ block: "nearest" }));
  tick();
}

function handPage(handId) {
  return `/hands/${handId}`;
}

function renderToolbar(view) {
  const last = $("last-hand");
  last.hidden = !state.lastResult && !state.lastHandId;
  last.setAttribute("aria-expanded", String(!$("result").hidden));
  const seat = view.seats.find((s) => s.seat === view.you.seat);
  const seated = Boolean(seat);
  $("sit-out").hidden = !seated;
  $("top-up").hidden = !seated;
  $("stand-up").hidden = !seated;
  if (seat) {
    $("sit-out").textContent = seat.sitting_out ? t("Come back") : t("Sit out");
    $("stand-up").textContent = seat.leaving ? t("Leaving after this hand") : t("Stand up");
    $("stand-up").disabled = seat.leaving;
  }
  $("sound-toggle").setAttribute("aria-pressed", String(soundOn()));
  $("colour-toggle").setAttribute("aria-pressed", String(ctx.cardOptions.fourColour));
  const pause = $("pause-table");
  if (pause) {
    pause.textContent = view.table.status === "paused" ? t("Resume") : t("Pause");
    pause.disabled = view.table.status === "closed" || view.table.status === "closing";
    $("close-table").disabled = pause.disabled;
  }
  $("table-name").textContent = view.table.status === "paused" ? t("{name} (paused)", { name: view.table.name }) : view.table.name;
}

function render() {
  const view = state.view;
  if (!view) return;
  root.classList.toggle("is-spectator", view.you.seat === null);
  // Redraws between snapshots (a card picked for the draw) keep the timer where it is.
  const turnLeft = state.turnEndsAt === null ? null : Math.max(0, (state.turnEndsAt - performance.now()) / 1000);
  drawFelt({ seats: $("seats"), centre: $("centre") }, view, game, ctx, { onSit: sitDown, turnLeft });
  $("hand-info").textContent = view.hand ? game.handInfo(view.hand) : "";
  renderCommitment(view);
  renderMine(view);
  waiting.render(view);
  renderCoach(view);
  labelShortcuts($("controls"));
  renderLastTrick(view);
  renderResult();
  renderToolbar(view);
}

// The countdowns on the page (the result's "Next hand in", the gathering's), one clock.
function tick() {
  waiting.tick();
  const el = document.getElementById("next-hand");
  if (!el) return;
  if (state.nextHandAt === null || state.view?.hand) {
    el.textContent = "";
    return;
  }
  const seconds = Math.max(0, Math.ceil((state.nextHandAt - performance.now()) / 1000));
  el.textContent = seconds > 0 ? t("Next hand in {seconds} s", { seconds }) : t("Dealing…");
}
setInterval(tick, 250);

// ---------------------------------------------------------------- seat controls

async function balance() {
  return (await api("/api/me")).balance;
}

async function sitDown(seat) {
  const table = state.view.table;
  try {
    const amount = await chooseAmount({
      title: t("Sit at seat {n}", { n: seat + 1 }),
      min: table.buy_in_min,
      max: table.buy_in_max,
      balance: await balance(),
      chipUnit,
    });
    if (amount === null) return;
    await api(`/api/tables/${tableId}/seat`, { method: "POST", body: { seat, buy_in: amount, request_key: requestKey(), ...(invite ? { invite_code: invite } : {}) } });
  } catch (error) {
    toast(error instanceof ApiError ? error.message : String(error));
  }
}

async function post(path, body) {
  try {
    await api(`/api/tables/${tableId}/${path}`, { method: "POST", body });
  } catch (error) {
    toast(error instanceof ApiError ? error.message : String(error));
  }
}

$("sit-out").addEventListener("click", () => {
  const seat = state.view?.seats.find((s) => s.seat === state.view.you.seat);
  if (seat) post(seat.sitting_out ? "sit-in" : "sit-out");
});
$("stand-up").addEventListener("click", () => {
  if (window.confirm(t("Stand up? Your stack goes back to your balance when your hand is over."))) post("stand");
});
$("top-up").addEventListener("click", async () => {
  const table = state.view.table;
  const seat = state.view.seats.find((s) => s.seat === state.view.you.seat);
  const fixed = described.buy_in_option !== null; // the buy-in is one amount (a cave)
  try {
    const amount = await chooseAmount({
      title: t("Top up"),
      min: fixed ? table.buy_in_min : 1,
      max: fixed ? table.buy_in_min : Math.max(1, table.buy_in_max - (seat?.stack ?? 0)),
      balance: await balance(),
      chipUnit,
      confirm: t("Top up"),
    });
    if (amount !== null) await post("top-up", { amount, request_key: requestKey() });
  } catch (error) {
    toast(error instanceof ApiError ? error.message : String(error));
  }
});
// Admins' controls (the server checks the role; these buttons only exist on their pages).
$("pause-table")?.addEventListener("click", () => {
  post(state.view?.table.status === "paused" ? "resume" : "pause");
});
$("close-table")?.addEventListener("click", () => {
  if (window.confirm(t("Close this table? Stacks go back to the players once any hand in play is over."))) post("close");
});
// "Last hand": the last result's panel, shown again or put away. After a reload it is no
// longer in the table's view: the hand's page gives it.
$("last-hand").addEventListener("click", async () => {
  if (!state.lastResult && state.lastHandId) {
    try {
      const detail = await api(`/api/hands/${state.lastHandId}`);
      for (const p of detail.hand.players ?? []) state.names.set(p.username, p.name);
      state.lastResult = { ...detail.result, hand_id: state.lastHandId };
      state.resultBefore = {};
    } catch {
      window.location.href = handPage(state.lastHandId);
      return;
    }
  }
  state.resultShown = $("result").hidden ? "open" : "closed";
  render();
  if (!$("result").hidden) $("result").focus();
});
$("last-trick-toggle").addEventListener("click", () => {
  state.lastTrickOn = !state.lastTrickOn;
  render();
});
$("sound-toggle").addEventListener("click", () => {
  setSound(!soundOn());
  if (soundOn()) sounds.card();
  render();
});
$("colour-toggle").addEventListener("click", () => {
  setFourColour(!ctx.cardOptions.fourColour);
  render();
});

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = event.target.elements.text;
  const text = input.value.trim();
  if (!text) return;
  if (socket.send({ type: "chat", text })) input.value = "";
  else toast(t("You are offline; reconnecting…"));
});

/** After a reload between hands the last result is gone from the view: ask the history. */
async function findLastHand() {
  try {
    const found = await api(`/api/hands?table_id=${tableId}&limit=1`);
    if (!state.lastHandId && found.hands.length) {
      state.lastHandId = found.hands[0].id;
      render();
    }
  } catch {
    // No hand of mine here yet, or the server is away: no "Last hand" link, nothing else.
  }
}

keepTurnInView($("me"), () => state.myTurn);
installShortcuts({ controls: $("controls"), hand: $("my-hand"), dialog: $("shortcuts"), shortcuts: game.SHORTCUT_LIST, opener: $("shortcuts-open") });
// A phone has no room to spare under the controls: the hand log starts folded there.
if (window.matchMedia("(max-width: 760px)").matches) $("hand-log-panel").open = false;
// Opened, the log shows its latest lines.
$("hand-log-panel").addEventListener("toggle", () => {
  $("hand-log").scrollTop = $("hand-log").scrollHeight;
});

const waiting = new WaitingBanner($("table-notice"), {
  name: seatName,
  fixed: described.buy_in_option !== null,
  nextHandAt: () => state.nextHandAt,
  topUp: (amount) => post("top-up", { amount, request_key: requestKey() }),
  openTopUp: () => $("top-up").click(),
  comeBack: () => post("sit-in"),
  dealNow: () => socket.send({ type: "deal_now" }) || toast(t("You are offline; reconnecting…")),
});
const socket = new TableSocket(tableId, onFrame, setConnection, invite);
socket.connect();
findLastHand();
