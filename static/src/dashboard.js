// Keeps a teacher's class page current while it is open: every few
// seconds it fetches the page again and swaps in the live part. Without
// JavaScript the page's <noscript> refresh reloads it instead.

const live = document.querySelector("[data-live]");

function busy() {
  const el = document.activeElement;
  return el && el.closest && el.closest("form") !== null;
}

async function refresh() {
  if (document.hidden || busy()) return;
  try {
    const response = await fetch(window.location.href, {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
    });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.querySelector("[data-live]");
    if (fresh && live) live.replaceChildren(...fresh.childNodes); // drawn and escaped by the server
  } catch {
    // Offline for a moment: the next tick tries again.
  }
}

if (live) {
  const seconds = Number(live.dataset.refresh) || 10;
  setInterval(refresh, seconds * 1000);
}
