// One hand, replayed: each step of the hand (from /api/hands/{id}) is a view of the same
// shape as the live table's, drawn on the same felt by the same game modules, read-only.
// Play / pause, step back and forward (also ← →), jump to a trick or a betting round, and
// the hand log beside the felt with the current step marked; click a line to go there.
// Once the seed is revealed, the Verify panel re-derives the deck in the browser.
import { api, ApiError } from "../api.js";
import { cardElement } from "../cards.js";
import { h, chips, frontEnd, GAME_NAMES } from "../dom.js";
import { t, tn, tp } from "../i18n.js";
import { localTime, viewerZone } from "../localtime.js";
import { deckOptions, drawFelt, placeToward } from "../table/felt.js";

const STEP_MS = 1200;
const root = document.getElementById("hand-app");
const handId = Number(root.dataset.handId);
const $ = (id) => document.getElementById(id);

const state = { detail: null, game: null, at: 0, timer: null, stacksBefore: {}, jumps: [] };

const ctx = {
  get cardOptions() {
    return deckOptions();
  },
  placeToward(el, seat, share) {
    placeToward(el, currentView(), seat, share);
  },
  rules() {
    return state.detail.steps[0]?.view.table.rules ?? {};
  },
  displayName(username) {
    return state.detail.hand.players.find((p) => p.username === username)?.name ?? username;
  },
  delta(username, after) {
    const before = state.stacksBefore[username];
    if (before === undefined || after === undefined || before === after) return null;
    const diff = after - before;
    return h("span", { class: diff > 0 ? "delta up" : "delta down", text: ` (${diff > 0 ? "+" : "−"}${chips(Math.abs(diff))})` });
  },
};

function currentView() {
  return state.detail.steps[state.at].view;
}

/** Where a step belongs, for the "Jump to" list: a trick, a betting round or a stage of
 * the hand (the phase shown before the step), the deal, the end. */
function section(step, before) {
  if (step.trick !== null && step.trick !== undefined) return t("Trick {number}", { number: step.trick });
  if (step.round) return roundName(step.round);
  if (step.kind === "end") return tp("replay", "End");
  if (step.kind === "deal") return tp("replay", "Deal");
  // A game's stages before the tricks, by the phase an action was taken in.
  return state.game.STAGES[before?.view.hand?.phase] ?? null;
}

/** A betting round by its phase's key (Bouillotte's, rules/bouillotte.md): the words the
 *  catalogs know, else the key made readable, so a new game's rounds still show. */
function roundName(round) {
  const known = {
    straddle: tp("bouillotte round", "Straddle"),
    buy_back: tp("bouillotte round", "Buy back"),
    opening: tp("bouillotte round", "Opening"),
    calls: tp("bouillotte round", "Calls"),
    continuation: tp("bouillotte round", "Continuation"),
  };
  return known[round] ?? round.charAt(0).toUpperCase() + round.slice(1).replace(/_/g, " ");
}

function buildJumps(steps) {
  const jumps = [];
  steps.forEach((step, at) => {
    const name = section(step, steps[at - 1]);
    if (name && name !== jumps[jumps.length - 1]?.name) jumps.push({ name, at });
  });
  return jumps;
}

// ---------------------------------------------------------------- drawing

function viewerCards(view) {
  const cards = view.hand?.hand ?? [];
  const ordered = state.game.viewerOrder(cards, view.hand);
  return ordered.map((card) => cardElement(card, ctx.cardOptions));
}

function show(at) {
  const steps = state.detail.steps;
  state.at = Math.max(0, Math.min(steps.length - 1, at));
  const step = steps[state.at];
  const view = step.view;
  drawFelt({ seats: $("seats"), centre: $("centre") }, view, state.game, ctx, { live: false });
  const mine = viewerCards(view);
  $("replay-cards").replaceChildren(...mine);
  $("replay-cards").hidden = mine.length === 0;
  $("step-label").textContent = t("Step {number} of {total}: {label}", {
    number: state.at + 1, total: steps.length, label: step.label,
  });
  root.dataset.step = String(state.at);
  for (const item of $("action-log").children) {
    const here = Number(item.dataset.step) === state.at;
    item.classList.toggle("is-current", here);
    if (here) item.firstChild.setAttribute("aria-current", "step");
    else item.firstChild.removeAttribute("aria-current");
  }
  scrollLogTo(state.at);
  const jump = [...state.jumps].reverse().find((j) => j.at <= state.at);
  $("jump").value = jump ? String(jump.at) : "";
  $("step-back").disabled = state.at === 0;
  $("step-forward").disabled = state.at === steps.length - 1;
  const result = $("hand-result");
  const over = step.kind === "end" && state.detail.result;
  result.hidden = !over;
  result.replaceChildren(...(over ? state.game.result(state.detail.result, ctx) : []));
}

/** Keep the current line in sight inside the log (its offsetParent), not scrolling the page. */
function scrollLogTo(at) {
  const log = $("action-log");
  const item = log.querySelector(`[data-step="${at}"]`);
  if (!item) return;
  const top = item.offsetTop;
  if (top < log.scrollTop || top + item.offsetHeight > log.scrollTop + log.clientHeight) {
    log.scrollTop = top - log.clientHeight / 2;
  }
}

function setPlaying(on) {
  clearInterval(state.timer);
  state.timer = null;
  const button = $("play");
  button.setAttribute("aria-pressed", String(on));
  const word = on ? tp("replay", "Pause") : tp("replay", "Play");
  button.setAttribute("aria-label", word);
  button.textContent = `${on ? "❚❚" : "▶"} ${word}`;
  if (!on) return;
  if (state.at === state.detail.steps.length - 1) show(0);
  state.timer = setInterval(() => {
    if (state.at >= state.detail.steps.length - 1) setPlaying(false);
    else show(state.at + 1);
  }, STEP_MS);
}

function go(at) {
  setPlaying(false);
  show(at);
}

// ---------------------------------------------------------------- the page

function drawHead(detail) {
  const hand = detail.hand;
  const title = t("{table} · hand {number}", { table: hand.table_name, number: hand.number });
  document.title = `${title} · Salon`;
  $("hand-title").textContent = title;
  const winners = hand.winners.length
    ? t("won by {names}", { names: hand.winners.join(tp("list", ", ")) }) : t("the pot carried");
  const pot = t("pot {amount}", { amount: chips(hand.pot) });
  $("hand-meta").textContent = `${GAME_NAMES[hand.game] ?? hand.game} · ${localTime(hand.ended_at)} · ${pot} · ${winners}`;
  $("full-badge").hidden = !detail.full;
  $("log-json").href = `/api/hands/${handId}/log.json`;
  // The printed record says when the hand ended in the reader's own time zone.
  $("log-txt").href = `/api/hands/${handId}/log.txt?${new URLSearchParams({ tz: viewerZone() })}`;
}

function drawLog(steps) {
  $("action-log").replaceChildren(...steps.map((step, at) => h("li", { dataset: { step: String(at), kind: step.kind } },
    h("button", { type: "button", class: "log-line", text: step.label, onclick: () => go(at) }))));
  $("jump").replaceChildren(...state.jumps.map((j) => h("option", { value: String(j.at), text: j.name })));
}

function drawVerify(detail) {
  const panel = $("verify");
  panel.hidden = false;
  $("commitment").textContent = detail.commitment;
  $("seed").textContent = detail.seed ?? t("not revealed yet");
  const button = $("verify-button");
  button.hidden = !detail.revealed;
  if (!detail.revealed) {
    $("verify-result").textContent = t("The seed is revealed under the club's rule; come back then to check the shuffle.");
  }
}

async function verify() {
  const detail = state.detail;
  const out = $("verify-result");
  out.dataset.state = "checking";
  out.textContent = t("Checking…");
  // A hand dealt from players' contributions committed to its server seed, not its seed:
  // without that server seed in the history there is nothing honest to compare.
  const contributions = detail.contributions ?? detail.result.contributions;
  if (contributions !== undefined && !detail.server_seed) {
    out.dataset.state = "unavailable";
    out.textContent = t("This hand's server seed is not in its history, so its shuffle cannot be checked here yet.");
    return;
  }
  try {
    const { verifyHand } = await import("../fair.js");
    const checked = await verifyHand({
      commitment: detail.commitment,
      serverSeed: detail.server_seed,
      contributions,
      seed: detail.seed,
      game: detail.hand.game,
      deck: detail.deck,
    });
    // Without the dealt deck in the history only the seed can be checked: say so.
    const dealt = Array.isArray(detail.deck);
    const failed = ["commitment", "seed", ...(dealt ? ["deck"] : [])].filter((part) => !checked[part]);
    out.dataset.state = failed.length ? "mismatch" : "match";
    const parts = {
      commitment: tp("fair deal", "commitment"),
      seed: tp("fair deal", "seed"),
      deck: tp("fair deal", "deck"),
    };
    if (failed.length) {
      out.textContent = tn(
        "No match: the {parts} does not agree with what was published.",
        "No match: the {parts} do not agree with what was published.",
        failed.length,
        { parts: failed.map((part) => parts[part]).join(tp("list", ", ")) },
      );
    } else if (dealt) {
      out.textContent = t("Match: the seed fits the commitment published before the deal, and it deals exactly these cards.");
    } else {
      out.textContent = t("Match: the seed fits the commitment published before the deal. (The dealt deck is not in this history, so it was not compared.)");
    }
  } catch (error) {
    out.dataset.state = "error";
    out.textContent = t("The check could not run: {reason}", { reason: error.message ?? error });
  }
}

async function start() {
  let detail;
  try {
    detail = await api(`/api/hands/${handId}`);
  } catch (error) {
    $("hand-status").hidden = false;
    $("hand-status").textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  state.detail = detail;
  state.game = await frontEnd(detail.hand.game);
  root.classList.add(`game-${detail.hand.game}`);
  state.stacksBefore = Object.fromEntries((detail.steps[0]?.view.seats ?? []).map((s) => [s.username, s.stack]));
  state.jumps = buildJumps(detail.steps);
  drawHead(detail);
  drawLog(detail.steps);
  drawVerify(detail);
  $("replay").hidden = false;
  show(0);
}

$("step-back").addEventListener("click", () => go(state.at - 1));
$("step-forward").addEventListener("click", () => go(state.at + 1));
$("play").addEventListener("click", () => setPlaying(state.timer === null));
$("jump").addEventListener("change", (event) => go(Number(event.target.value)));
$("verify-button").addEventListener("click", verify);
document.addEventListener("keydown", (event) => {
  if (!state.detail || event.target.closest?.("input, select, textarea")) return;
  const move = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  go(state.at + move);
});

start();
