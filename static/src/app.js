// Small progressive enhancements for every page. Every form works without
// this script: it posts and the server answers with a page.

import "./lib/confirm.js";
import "./lib/lti-storage.js";

// The learner's time zone, so streaks count days where the learner lives.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";

function fillZones(root) {
  for (const input of root.querySelectorAll('input[name="tz"]')) {
    if (!input.value) input.value = zone;
  }
}

function updateHeader(learner) {
  if (!learner) return;
  const set = (id, text) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (el) el.textContent = text;
  };
  set("xp-total", String(learner.xp));
  set("level", String(learner.level));
  set("streak", `${learner.streakDays} ${learner.streakDays === 1 ? "day" : "days"}`);
  // "Continue: LESSON — PART" follows the learner's work.
  let resume = document.querySelector("a[data-continue]");
  const stats = document.querySelector('[data-testid="learner-stats"]');
  if (!resume && learner.continue && stats) {
    // A first visit's header has none yet.
    resume = document.createElement("a");
    resume.className = "continue-link";
    resume.dataset.continue = "";
    resume.dataset.testid = "continue-header";
    stats.after(resume);
  }
  if (resume && learner.continue) {
    resume.href = learner.continue.href;
    resume.textContent = learner.continue.label;
  }
}

// showFinished fills the end of a lesson the learner just completed with
// the server's "Next lesson" box.
function showFinished(html) {
  const slot = document.querySelector("[data-lesson-finished]");
  if (slot && html && !slot.firstElementChild) slot.innerHTML = html; // drawn and escaped by the server
}

// markDone ticks a part in the lesson map (both copies) and recounts the
// parts done, after a check in place.
function markDone(anchor) {
  for (const link of document.querySelectorAll(`.toc-list a[href="#${anchor}"]`)) {
    const item = link.closest("li");
    if (!item || item.classList.contains("toc-done")) continue;
    item.classList.add("toc-done");
    const mark = link.querySelector(".toc-mark");
    if (mark) mark.textContent = "✓";
    const note = document.createElement("span");
    note.className = "visually-hidden";
    note.textContent = " (done)";
    link.append(note);
  }
  for (const toc of document.querySelectorAll(".toc")) {
    const parts = toc.querySelectorAll(".toc-list li:not(.toc-section)").length;
    const done = toc.querySelectorAll(".toc-list li.toc-done").length;
    const count = toc.querySelector(".toc-title .hint-default, summary .hint-default");
    if (count) count.textContent = `(${done} of ${parts} ${parts === 1 ? "part" : "parts"} done)`;
  }
}

// openWhenDue turns each waiting quiz's disabled retry button into the
// retry link when the next attempt opens (the server says when).
function openWhenDue(root) {
  for (const button of root.querySelectorAll("button[data-opens-at]")) {
    const due = Date.parse(button.dataset.opensAt) - Date.now();
    const open = () => {
      if (!button.isConnected) return;
      const link = document.createElement("a");
      link.className = "button";
      link.href = button.dataset.href;
      link.dataset.testid = "quiz-retry";
      link.textContent = "Try again with new questions";
      button.replaceWith(link);
    };
    // A timer longer than about 24 days fires at once; waits are an hour
    // at most.
    if (due <= 0) open();
    else if (due < 2 ** 31) setTimeout(open, due);
  }
}

// Widget forms: submit in place and swap in the feedback the server drew.
// The server answers a refused post (incomplete, an attempt already over,
// or a wait after failures) with the form redrawn and its reason, which is
// shown in place too; only a network failure or an answer that is not the
// server's JSON falls back to a plain post.
async function submitInPlace(event) {
  const form = event.target.closest("form[data-widget-form]");
  if (!form) return;
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  if (button) button.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("application/json")) throw new Error(`server answered ${response.status}`);
    const data = await response.json();
    if (typeof data.html !== "string" || !data.html) throw new Error(`server answered ${response.status} without a form`);
    const section = form.closest("section.widget");
    // A try-it block is done once checked; the quiz once passed.
    if (response.ok && (!section.classList.contains("widget-quiz") || data.passed)) markDone(section.id);
    const holder = document.createElement("div");
    holder.innerHTML = data.html; // drawn and escaped by the server
    const fresh = holder.firstElementChild;
    section.replaceWith(fresh);
    fillZones(fresh);
    openWhenDue(fresh);
    if (response.ok) {
      updateHeader(data.learner);
      showFinished(data.finished);
    }
    const outcome = fresh.querySelector('[data-testid="outcome"]');
    if (outcome) {
      outcome.setAttribute("tabindex", "-1");
      outcome.focus({ preventScroll: false });
    }
  } catch (err) {
    // Fall back to a plain post, which always works.
    form.removeAttribute("data-widget-form");
    form.submit();
  } finally {
    if (button) button.removeAttribute("aria-busy");
  }
}

// showProblem says in the results area why code was not graded, as the
// server's own panel does, and moves nothing else.
function showProblem(results, message) {
  const p = document.createElement("p");
  p.className = "outcome outcome-fail";
  p.dataset.testid = "problem";
  p.textContent = message;
  results.replaceChildren(p);
}

// Exercise forms: run or submit in place and show the results under the
// editor, which keeps its state.
async function runInPlace(event) {
  const form = event.target.closest("form[data-exercise-form]");
  if (!form) return;
  event.preventDefault();
  const panel = form.closest("section.exercise");
  let results = panel.querySelector('[data-testid="results"]');
  const buttons = form.querySelectorAll("button");
  const body = new URLSearchParams(new FormData(form));
  body.set("mode", (event.submitter && event.submitter.value) || "run");
  buttons.forEach((b) => b.setAttribute("aria-busy", "true"));
  results.textContent = "Running…";
  try {
    let response;
    try {
      response = await fetch(form.getAttribute("action"), {
        method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin",
      });
    } catch (err) {
      showProblem(results, "The server could not be reached. Your code is still here; try again.");
      return;
    }
    // Not every answer is JSON: a body over the server's cap is refused in
    // plain text, and a proxy in front may answer with a page.
    const raw = await response.text();
    let data = {};
    try {
      data = JSON.parse(raw);
    } catch (err) {
      const type = response.headers.get("Content-Type") || "";
      if (type.startsWith("text/plain") && raw.trim()) data = { error: raw.trim().slice(0, 300) };
    }
    const drawn = data.html && new DOMParser().parseFromString(data.html, "text/html");
    const fresh = drawn && drawn.querySelector('[data-testid="results"]');
    if (fresh) {
      // Drawn and escaped by the server.
      results.replaceWith(fresh);
      results = fresh;
      // Hints open after a failed run; the reference solution after solving.
      const help = drawn.querySelector("[data-exercise-help]");
      const oldHelp = panel.querySelector("[data-exercise-help]");
      if (help && oldHelp) oldHelp.replaceWith(help);
      showFinished(data.finished);
      if (data.passed && body.get("mode") === "submit") markDone(panel.id);
    } else {
      showProblem(results, data.error || data.problem || `The server answered ${response.status} ${response.statusText}; your code is still here, try again.`);
    }
    updateHeader(data.learner);
  } finally {
    buttons.forEach((b) => b.removeAttribute("aria-busy"));
  }
}

// Hint forms: show the next hint in place and move to it.
async function hintInPlace(event) {
  const form = event.target.closest("form[data-hint-form]");
  if (!form) return;
  event.preventDefault();
  const help = form.closest("[data-exercise-help]");
  const button = form.querySelector("button");
  if (button) button.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!response.ok) throw new Error(`server answered ${response.status}`);
    const data = await response.json();
    const fresh = new DOMParser().parseFromString(data.html, "text/html").querySelector("[data-exercise-help]");
    help.replaceWith(fresh); // drawn and escaped by the server
    const hints = fresh.querySelectorAll('[data-testid="hint"]');
    if (hints.length) hints[hints.length - 1].focus();
    updateHeader(data.learner);
  } catch (err) {
    // Fall back to a plain post, which always works.
    form.removeAttribute("data-hint-form");
    form.submit();
  } finally {
    if (button) button.removeAttribute("aria-busy");
  }
}

fillZones(document);
openWhenDue(document);
document.addEventListener("submit", hintInPlace);
document.addEventListener("submit", submitInPlace);
document.addEventListener("submit", runInPlace);

// A deep linking response goes back to the LMS at once; without this
// script the page's own button posts it.
for (const form of document.querySelectorAll("form[data-auto-submit]")) form.submit();

// ---- LTI Dynamic Registration ----
// The page that says learn is registered asks the LMS, which opened it in
// a frame or a window, to close it (LTI Dynamic Registration 1.0): the
// message goes to the LMS's origin alone, which the page names.
function closeDynamicRegistration() {
  const done = document.querySelector("[data-lti-registered]");
  const origin = done ? done.getAttribute("data-lti-registered") : "";
  if (!origin) return;
  const platform = window.opener || (window.parent !== window ? window.parent : null);
  if (platform) platform.postMessage({ subject: "org.imsglobal.lti.close" }, origin);
}
closeDynamicRegistration();
// ---- end of LTI Dynamic Registration ----
