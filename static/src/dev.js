// Development mode only (learn serve --dev): loaded on pages that carry
// the <meta name="learn-dev-events"> marker. It follows the server's
// course state: when the course reloads, the page reloads where it was
// scrolled to; while the course folder has problems, an overlay lists
// them as file:line: message, since the page shows the last version that
// loaded.

const marker = document.querySelector('meta[name="learn-dev-events"]');
const scrollKey = "learn-dev-scroll:" + location.pathname;

function restoreScroll() {
  const saved = sessionStorage.getItem(scrollKey);
  if (saved === null) return;
  sessionStorage.removeItem(scrollKey);
  const [x, y] = saved.split(",").map(Number);
  window.scrollTo(x || 0, y || 0);
}

function reloadInPlace() {
  sessionStorage.setItem(scrollKey, `${window.scrollX},${window.scrollY}`);
  location.reload();
}

function hideProblems() {
  const old = document.getElementById("dev-overlay");
  if (old) old.remove();
}

function showProblems(problems) {
  hideProblems();
  const box = document.createElement("section");
  box.id = "dev-overlay";
  box.className = "dev-overlay";
  box.setAttribute("role", "alert");
  box.setAttribute("aria-labelledby", "dev-overlay-title");
  box.dataset.testid = "dev-overlay";
  const title = document.createElement("h2");
  title.id = "dev-overlay-title";
  title.textContent = `The course has ${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  const note = document.createElement("p");
  note.textContent = "This page shows the last version that loaded. Fix these and save; the page reloads by itself.";
  const list = document.createElement("ul");
  for (const p of problems) {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = p; // text, never HTML
    item.append(code);
    list.append(item);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "secondary";
  close.textContent = "Hide until the next change";
  close.addEventListener("click", hideProblems);
  box.append(title, note, list, close);
  document.body.append(box);
}

if (marker) {
  restoreScroll();
  let version = null;
  const events = new EventSource(marker.getAttribute("content"));
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    if (version !== null && state.version !== version) {
      events.close();
      reloadInPlace();
      return;
    }
    version = state.version;
    // Says the page follows the course (tests wait for it).
    document.documentElement.dataset.devEvents = "following";
    if (state.problems.length > 0) showProblems(state.problems);
    else hideProblems();
  });
}
