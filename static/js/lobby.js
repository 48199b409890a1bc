// The lobby: every table the member may see, refreshed every few seconds, with a join button
// that asks for the buy-in; and (where the club allows it) the form that opens a table.
import { api, ApiError, requestKey } from "./api.js";
import { chooseAmount } from "./buyin.js";
import { h, chips, GAME_NAMES, GAMES, gameNamed } from "./dom.js";
import { t, tn, tp } from "./i18n.js";

const REFRESH_MS = 3000;
const root = document.getElementById("lobby");
const chipUnit = root.dataset.chipUnit;
const me = root.dataset.username;
const list = document.getElementById("table-list");
const status = document.getElementById("lobby-status");
let balance = 0;
let lastDrawn = "";

function stakes(table) {
  // A game whose buy-in is one amount set by its rules (Bouillotte's cave) shows only that.
  const fixed = gameNamed(table.game)?.buy_in_option;
  if (fixed) return `${optionName(fixed)} ${chips(table.rules[fixed] ?? table.buy_in_min)}`;
  const amounts = {
    ante: chips(table.rules.ante ?? 1),
    limit: chips(table.rules.pot_limit),
    min: chips(table.buy_in_min),
    max: chips(table.buy_in_max),
  };
  return table.rules.pot_limit
    ? t("Ante {ante} · pot limit {limit} · buy-in {min}–{max}", amounts)
    : t("Ante {ante} · buy-in {min}–{max}", amounts);
}

// The rule that is the buy-in, by its key: the words known to the catalogs, else the key.
function optionName(option) {
  if (option === "cave") return tp("bouillotte", "Cave");
  return option.charAt(0).toUpperCase() + option.slice(1).replace(/_/g, " ");
}

function stateLine(table) {
  if (table.status === "paused") return t("Paused");
  if (table.status === "closing") return t("Closing after this hand");
  if (table.hand_in_progress) return t("Hand {number} in play", { number: table.hands_played + 1 });
  return table.seats.length >= 2 ? t("Between hands") : t("Waiting for players");
}

async function join(table) {
  const amount = await chooseAmount({
    title: t("Join {table}", { table: table.name }),
    min: table.buy_in_min,
    max: table.buy_in_max,
    balance,
    chipUnit,
  });
  if (amount === null) return;
  try {
    await api(`/api/tables/${table.id}/seat`, {
      method: "POST",
      body: { buy_in: amount, request_key: requestKey() },
    });
    window.location.assign(`/tables/${table.id}`);
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : String(error);
  }
}

// A practice table is its opener's to close (play money goes back to the play bank).
async function closePractice(table) {
  try {
    await api(`/api/tables/${table.id}/close`, { method: "POST" });
    await refresh();
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : String(error);
  }
}

function row(table) {
  const mine = table.seats.some((seat) => seat.username === me);
  // A bot filling a seat gives it to a person who asks (between hands).
  const botSeat = Boolean(table.bot_fill) && table.seats.some((seat) => seat.bot);
  const full = table.seats.length >= table.seat_count && !botSeat;
  const actions = [];
  if (mine) {
    actions.push(h("a", { class: "button", href: `/tables/${table.id}`, text: t("Back to my seat") }));
  }
  if (table.practice) {
    actions.push(h("button", {
      type: "button", class: "secondary", text: tp("practice table", "Close"),
      onclick: () => closePractice(table),
    }));
  } else if (!mine) {
    if (!full && table.status !== "closed") {
      actions.push(h("button", { type: "button", text: tp("table", "Join"), onclick: () => join(table) }));
    }
    if (table.allow_spectators) {
      actions.push(h("a", { class: "button secondary", href: `/tables/${table.id}`, text: t("Watch") }));
    }
  }
  const players = table.seats.map((seat) => seat.name).join(tp("list", ", ")) || t("no one yet");
  // Only the table's creator and the admins are given a private table's invite code.
  const inviteLink = table.invite_code
    ? `${window.location.origin}/tables/${table.id}?invite=${encodeURIComponent(table.invite_code)}`
    : null;
  return h("li", { class: "table-row", dataset: { tableId: table.id, game: table.game } },
    h("div", { class: "table-row-main" },
      h("h2", {}, h("a", { href: `/tables/${table.id}`, text: table.name })),
      h("p", { class: "table-row-game" },
        h("span", { class: `game-badge game-badge--${table.game}`, text: GAME_NAMES[table.game] }),
        table.practice
          ? h("span", { class: "badge badge-practice", text: t("Practice · play money") })
          : table.private ? h("span", { class: "badge", text: t("Private") }) : null,
        " ", stakes(table)),
      h("p", { class: "muted table-row-rules" }, table.rules_summary, " · ",
        h("a", { href: `/tables/${table.id}/rules`, text: t("rules") })),
      h("p", { class: "muted" },
        h("span", { class: "seats-taken", text: t("{taken}/{seats} seated", {
          taken: table.seats.length, seats: table.seat_count,
        }) }),
        ` · ${stateLine(table)}`,
        table.spectators ? " · " + tn("{n} watching", "{n} watching", table.spectators) : "",
        h("br"), t("Players: {names}", { names: players })),
      inviteLink ? h("p", { class: "invite" }, t("Invite link:") + " ",
        h("input", { type: "text", readonly: true, value: inviteLink, class: "invite-link", "aria-label": t("Invite link"), onfocus: (e) => e.target.select() })) : null),
    h("div", { class: "table-row-actions" }, actions));
}

async function refresh() {
  try {
    const [tables, profile] = await Promise.all([api("/api/tables"), api("/api/me")]);
    balance = profile.balance;
    document.getElementById("my-balance").textContent = chips(balance);
    const open = tables.filter((table) => table.status !== "closed");
    // Redraw only what changed, so a refresh does not steal focus or a text selection.
    const drawn = JSON.stringify([open, balance]);
    if (drawn !== lastDrawn) {
      list.replaceChildren(...open.map(row));
      lastDrawn = drawn;
    }
    document.getElementById("no-tables").hidden = open.length > 0;
    if (status.dataset.kind === "offline") {
      status.textContent = "";
      delete status.dataset.kind;
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      window.location.assign("/login");
      return;
    }
    status.textContent = t("Cannot reach the club's server; retrying…");
    status.dataset.kind = "offline";
  }
}

function setUpCreateForm() {
  const form = document.getElementById("create-table");
  if (!form) return;
  // Only the chosen game's fields are shown and sent (`data-game`: the games a field serves,
  // separated by spaces); a field marked with a preset (the pot limit) only with that
  // preset. The house rules are one preset at a time, so options that are invalid together
  // (rules/bourre.md §4, §5) cannot be chosen together.
  const showFields = () => {
    const game = form.elements.game.value;
    const preset = form.elements[`preset_${game}`].value;
    for (const el of form.querySelectorAll("[data-game]")) {
      el.hidden = !el.dataset.game.split(" ").includes(game)
        || (el.dataset.preset !== undefined && el.dataset.preset !== preset);
      for (const input of el.querySelectorAll("input, select")) input.disabled = el.hidden;
    }
    form.elements.seat_count.max = gameNamed(game).max_seats;
    form.elements.seat_count.min = gameNamed(game).min_seats;
  };
  // A saved configuration's stakes are where the opener starts from.
  const useStakes = (event) => {
    const chosen = event.target.selectedOptions[0];
    if (!chosen || !chosen.dataset.stakes) return;
    for (const [key, value] of Object.entries(JSON.parse(chosen.dataset.stakes))) {
      if (form.elements[key] && value !== null) form.elements[key].value = value;
    }
  };
  for (const radio of form.elements.game) radio.addEventListener("change", showFields);
  for (const select of GAMES.map((g) => form.elements[`preset_${g.name}`])) {
    select.addEventListener("change", showFields);
    select.addEventListener("change", useStakes);
  }
  showFields();
  addClubRules(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = form.elements;
    const game = f.game.value;
    const described = gameNamed(game);
    const choice = f[`preset_${game}`].value;
    const [kind, chosen] = choice.includes(":") ? choice.split(":") : ["preset", choice];
    const preset = kind === "preset" ? chosen : "";
    // The stakes the opener sets over the house rules: the game's fields shown (see showFields).
    const rules = Object.fromEntries(described.stakes
      .filter((name) => f[name] && !f[name].disabled)
      .map((name) => [name, Number(f[name].value)]));
    const fixed = described.buy_in_option;
    const body = {
      name: f.name.value.trim(),
      game,
      seat_count: Number(f.seat_count.value),
      turn_seconds: Number(f.turn_seconds.value),
      private: f.private.checked,
      allow_spectators: f.allow_spectators.checked,
      rules,
      buy_in_min: fixed ? rules[fixed] : Number(f.buy_in_min.value),
      buy_in_max: fixed ? rules[fixed] : Number(f.buy_in_max.value),
    };
    if (f.gathering_seconds.value !== "") body.gathering_seconds = Number(f.gathering_seconds.value);
    if (preset) body.preset = preset;
    if (kind === "ruleset") body.ruleset_id = Number(chosen);
    const problem = document.getElementById("create-error");
    problem.textContent = "";
    try {
      const table = await api("/api/tables", { method: "POST", body });
      window.location.assign(`/tables/${table.id}`);
    } catch (error) {
      problem.textContent = error.message;
    }
  });
}

// The club's saved house rules come first in each game's choice (value "ruleset:<id>").
async function addClubRules(form) {
  let saved = [];
  try {
    saved = await api("/api/rulesets");
  } catch {
    return; // the built-in presets are still there
  }
  for (const game of GAMES.map((g) => g.name)) {
    const mine = saved.filter((r) => r.game === game);
    if (!mine.length) continue;
    const group = h("optgroup", { label: t("The club's rules") },
      ...mine.map((r) => h("option", {
        value: `ruleset:${r.id}`, text: r.name, title: r.summary,
        dataset: { stakes: JSON.stringify(r.stakes) },
      })));
    const select = form.elements[`preset_${game}`];
    select.append(group);
  }
}

// A practice table of one's own: play money, bots in the other seats.
function setUpPracticeForm() {
  const form = document.getElementById("practice-table");
  if (!form) return;
  const showPresets = () => {
    for (const label of form.querySelectorAll("[data-game]")) {
      label.hidden = label.dataset.game !== form.elements.game.value;
    }
  };
  for (const radio of form.elements.game) radio.addEventListener("change", showPresets);
  showPresets();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = form.elements;
    const game = f.game.value;
    const body = { game, seat_count: Number(f.seat_count.value), level: f.level.value };
    if (f[`preset_${game}`].value) body.preset = f[`preset_${game}`].value;
    const problem = document.getElementById("practice-error");
    problem.textContent = "";
    try {
      const table = await api("/api/tables/practice", { method: "POST", body });
      window.location.assign(`/tables/${table.id}`);
    } catch (error) {
      problem.textContent = error.message;
    }
  });
}

setUpCreateForm();
setUpPracticeForm();
refresh();
setInterval(refresh, REFRESH_MS);
