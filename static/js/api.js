// The JSON API as the pages use it: the session cookie rides along, unsafe methods carry the
// CSRF token the server put in the page, and refusals come back as ApiError(code, message).
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["X-CSRF-Token"] = csrfToken();
    headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", t("The club's server cannot be reached."), 0);
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError(
      error.code ?? "http_" + response.status,
      error.message ?? t("The server answered {status}.", { status: response.status }),
      response.status,
    );
  }
  return data;
}

/** A fresh idempotency key: a retried request with the same key is applied once. */
export function requestKey() {
  return crypto.randomUUID().replace(/-/g, "");
}
