// My hands: the member's past hands, newest first, a page at a time, filtered by the form
// (game, table, dates; for admins also member and pot size, over every hand of the club);
// then the member's net per day and statistics by game and by month, with SVG charts.
// The club's tables by default; practice tables (play money) only when the form asks, and
// then alone, each hand marked "Practice".
import { api, ApiError } from "../api.js";
import { around, h, chips, GAME_NAMES, signedChips } from "../dom.js";
import { t, tp } from "../i18n.js";
import { localTime } from "../localtime.js";
import { barChart } from "./chart.js";

const PAGE_SIZE = 20;
const root = document.getElementById("hands-app");
const admin = root.dataset.admin === "true";
const form = document.getElementById("hand-filters");
const list = document.getElementById("hand-list");
const status = document.getElementById("hands-status");
const older = document.getElementById("older");
const newer = document.getElementById("newer");
const $ = (id) => document.getElementById(id);

// The filter is the page's query string (the form is a GET form), so a search is a link.
const query = new URLSearchParams(window.location.search);
const practice = query.get("practice") === "true";
$("stats-practice").hidden = !practice;
if (practice) $("my-hands-csv").setAttribute("href", "/api/hands/mine.csv?practice=true");
// Cursors of the pages before the one shown: "Newer" goes back to the last of them.
const previous = [];
let current = null;

/** The API's filters: dates are the viewer's local days, from the first to the last. */
function filters() {
  const params = new URLSearchParams();
  for (const name of ["game", "table_id", "member_id", "min_pot", "max_pot", "practice"]) {
    const value = query.get(name);
    if (value) params.set(name, value);
  }
  const since = query.get("since");
  const until = query.get("until");
  if (since) params.set("since", new Date(`${since}T00:00`).toISOString());
  if (until) {
    const end = new Date(`${until}T00:00`);
    end.setDate(end.getDate() + 1);
    params.set("until", end.toISOString());
  }
  return params;
}

function fillForm() {
  for (const [name, value] of query) {
    const field = form.elements.namedItem(name);
    if (field) field.value = value;
  }
}

function signed(amount) {
  if (amount === null || amount === undefined) return null;
  return h("span", { class: amount > 0 ? "delta up" : amount < 0 ? "delta down" : "delta", text: signedChips(amount) });
}

function handRow(hand) {
  const players = hand.players.map((p) => p.name).join(tp("list", ", "));
  return h("li", { class: "hand-row", dataset: { handId: String(hand.id) } },
    h("a", { class: "hand-link", href: `/hands/${hand.id}` },
      h("span", { class: `game-badge game-badge--${hand.game}`, text: GAME_NAMES[hand.game] ?? hand.game }),
      h("strong", { text: t("{table} · hand {number}", { table: hand.table_name, number: hand.number }) }),
      hand.practice ? h("span", { class: "practice-badge", dataset: { testid: "practice-hand" }, text: t("Practice · play money") }) : null),
    h("time", { class: "muted", datetime: hand.ended_at, text: localTime(hand.ended_at) }),
    h("span", { class: "hand-pot" }, ...around(t("Pot {amount}"), "amount", h("strong", { text: chips(hand.pot) }))),
    hand.my_net === null ? null : h("span", { class: "hand-net", dataset: { testid: "my-net" } }, ...around(t("Me {net}"), "net", signed(hand.my_net))),
    h("span", { class: "hand-winners", text: hand.winners.length
      ? t("Won by {names}", { names: hand.winners.join(tp("list", ", ")) }) : t("Pot carried") }),
    admin ? h("span", { class: "hand-players muted", text: players }) : null);
}

async function showPage(cursor) {
  const params = filters();
  params.set("limit", String(PAGE_SIZE));
  if (cursor) params.set("cursor", cursor);
  status.textContent = t("Loading…");
  try {
    const page = await api(`/api/hands?${params}`);
    current = cursor;
    list.replaceChildren(...page.hands.map(handRow));
    status.textContent = page.hands.length ? "" : t("No hands match.");
    older.hidden = !page.next_cursor;
    older.onclick = () => {
      previous.push(current);
      showPage(page.next_cursor);
    };
    newer.hidden = previous.length === 0;
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : String(error);
  }
}
newer.addEventListener("click", () => showPage(previous.pop() ?? null));

/** A table whose first `words` columns are text and the others numbers (right-aligned). */
function statsTable(caption, head, rows, words = 1) {
  const align = (n) => (n >= words ? "num" : null);
  return h("table", { class: "ledger stats-table" },
    h("caption", { class: "visually-hidden", text: caption }),
    h("thead", {}, h("tr", {}, ...head.map((text, n) => h("th", { class: align(n), text })))),
    h("tbody", {}, ...rows.map((cells) => h("tr", {}, ...cells.map((cell, n) => h("td", { class: align(n) }, cell))))));
}

// The statistics' columns, in the page's language (a function: the words are read when drawn).
function statHead() {
  return [t("Hands"), tp("hands won", "Won"), t("Paid as bourré"), t("Brelans"), tp("chips", "Net")];
}
function statCells(s) {
  return [chips(s.hands), chips(s.won), chips(s.bourres_paid), chips(s.brelans), signed(s.net)];
}

async function showStats() {
  let stats;
  try {
    stats = await api(`/api/hands/stats${practice ? "?practice=true" : ""}`);
  } catch (error) {
    $("stats-by-game").textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  const games = Object.entries(stats.by_game);
  $("stats-by-game").replaceChildren(games.length
    ? statsTable(t("By game"), [t("Game"), ...statHead()], games.map(([game, s]) => [GAME_NAMES[game] ?? game, ...statCells(s)]))
    : h("p", { class: "muted", text: t("No hands played yet.") }));
  $("stats-months").hidden = stats.by_month.length === 0;
  const months = new Map();
  for (const row of stats.by_month) months.set(row.month, (months.get(row.month) ?? 0) + row.net);
  $("stats-chart").replaceChildren(barChart([...months].map(([month, net]) => ({ label: month, value: net })), t("Net chips by month")));
  $("stats-by-month").replaceChildren(statsTable(t("By month"), [t("Month"), t("Game"), ...statHead()],
    stats.by_month.map((row) => [row.month, GAME_NAMES[row.game] ?? row.game, ...statCells(row)]), 2));
  $("net-by-day-card").hidden = stats.net_by_day.length === 0;
  $("net-by-day").replaceChildren(barChart(
    stats.net_by_day.map((d) => ({ label: d.day.slice(5), value: d.net, title: `${d.day}: ${chips(d.net)}` })),
    t("My net chips per day")));
}

fillForm();
showPage(null);
showStats();
