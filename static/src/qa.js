// Questions under a lesson, better with JavaScript: forms in the questions
// section post in place and the section is swapped for the one the server
// drew, and each lesson part a question is about links to its thread.
// Without this script every form posts and the page comes back at the
// thread.

const section = () => document.querySelector('section[data-testid="qa"]');

// linkParts puts "Questions about this" links beside the parts threads are
// tied to (a heading, a widget, an exercise).
function linkParts(root) {
  for (const old of document.querySelectorAll("a[data-qa-part-link]")) old.remove();
  const byPart = new Map();
  for (const thread of root.querySelectorAll("article[data-part-href]")) {
    const href = thread.getAttribute("data-part-href");
    if (!href || !href.startsWith("#")) continue;
    if (!byPart.has(href)) byPart.set(href, []);
    byPart.get(href).push(thread.id);
  }
  for (const [href, threads] of byPart) {
    const target = document.getElementById(href.slice(1));
    if (!target) continue;
    const link = document.createElement("a");
    link.className = "qa-part-link";
    link.href = `#${threads[0]}`;
    link.setAttribute("data-qa-part-link", "");
    link.setAttribute("data-testid", "part-questions");
    link.textContent = threads.length === 1 ? "1 question about this" : `${threads.length} questions about this`;
    const heading = target.matches("h1, h2, h3, h4") ? target : target.querySelector("h2, h3");
    (heading || target).insertAdjacentElement("afterend", link);
  }
}

function setBadge(count) {
  let badge = document.querySelector('[data-testid="notices-badge"]');
  if (count > 0 && badge) {
    badge.firstChild.textContent = String(count);
  } else if (count === 0 && badge) {
    badge.remove();
  }
}

async function postInPlace(event) {
  const form = event.target.closest("form[data-qa-form]");
  if (!form || !form.closest('section[data-testid="qa"]')) return;
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  if (button) button.setAttribute("aria-busy", "true");
  const status = section().querySelector('[data-testid="qa-status"]');
  try {
    const response = await fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      // The text stays in the form; say what to change.
      const p = document.createElement("p");
      p.className = "outcome outcome-fail";
      p.setAttribute("data-testid", "qa-problem");
      p.textContent = (data && data.error) || `The server answered ${response.status}; try again.`;
      status.replaceChildren(p);
      return;
    }
    const holder = document.createElement("div");
    holder.innerHTML = data.html; // drawn and sanitised by the server
    const fresh = holder.firstElementChild;
    section().replaceWith(fresh);
    linkParts(fresh);
    setBadge(data.notices);
    const target = document.getElementById(data.anchor);
    if (target) {
      history.replaceState(null, "", `#${data.anchor}`);
      target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: false });
    }
  } catch (err) {
    // Fall back to a plain post, which always works.
    form.removeAttribute("data-qa-form");
    form.submit();
  } finally {
    if (button) button.removeAttribute("aria-busy");
  }
}

const root = section();
if (root) {
  linkParts(root);
  document.addEventListener("submit", postInPlace);
}
