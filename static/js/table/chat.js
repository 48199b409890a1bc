// Table chat lines, and the table's own notices among them. Text is shown as text (never as
// HTML); the log keeps the last lines only.
import { h } from "../dom.js";
import { t } from "../i18n.js";

const KEEP = 200;

function append(log, line) {
  log.append(line);
  while (log.children.length > KEEP) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

// A line an admin removed comes again with the same id and `removed`: it replaces the line
// in place (a page that never saw the line shows it as removed where it stands). Its text
// is the same for everyone at the table: the page says it in its reader's language.
export function appendChat(log, message) {
  const at = new Date(message.at);
  const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const line = h("li", { class: message.removed ? "chat-line chat-removed" : "chat-line", dataset: { chatId: String(message.id) } },
    h("time", { datetime: message.at, text: time }), " ",
    h("strong", { text: message.user }), " ",
    h("span", { class: "chat-text", text: message.removed ? t("removed by an admin") : message.text }));
  const shown = [...log.children].find((li) => li.dataset.chatId === String(message.id));
  if (shown) shown.replaceWith(line);
  else append(log, line);
}

export function appendNotice(log, text) {
  append(log, h("li", { class: "chat-line chat-notice", dataset: { testid: "notice" }, text }));
}
