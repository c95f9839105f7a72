// The platform's client-side storage (LTI Client Side postMessages), for
// a launch inside the LMS's frame where the browser keeps no cookie for
// learn: the login's page asks the platform to keep the browser's value
// and goes on to the LMS's authorisation; the launch's page gets the value
// back and posts the launch again with it. When the platform does not
// answer, the page shows what to do instead (its fallback block).

const section = document.querySelector("[data-lti-storage]");
if (section) run(section).catch(() => showFallback(section));

// The deep linking picker in such a frame (web/lti_deeplink_frame.go):
// its request is bound to the browser value the login put in the
// platform's storage, which the post must carry; it is got back when the
// form is submitted, never written into the page.
const picker = document.querySelector("form[data-lti-bound]");
if (picker) picker.addEventListener("submit", submitBound);

async function submitBound(event) {
  const form = event.currentTarget;
  event.preventDefault();
  if (form.dataset.ltiPending) return;
  form.dataset.ltiPending = "1";
  const button = form.querySelector('button[type="submit"]');
  if (button) button.setAttribute("aria-busy", "true");
  try {
    const { ltiTarget: target, ltiOrigin: origin, ltiKey: key } = form.dataset;
    const platform = window.opener || window.parent;
    if (!origin || !key || !platform || platform === window) throw new Error("no platform window");
    const answer = await ask(platform, origin, target, "lti.get_data", { key });
    if (typeof answer.value !== "string" || answer.value === "") throw new Error("no value kept");
    form.elements.learn_browser.value = answer.value;
    form.submit();
  } catch {
    delete form.dataset.ltiPending;
    if (button) button.removeAttribute("aria-busy");
    showFallback(form.closest("section") || document);
  }
}

async function run(el) {
  const { ltiStorage: mode, ltiTarget: target, ltiOrigin: origin, ltiKey: key } = el.dataset;
  if (!origin || !key) throw new Error("incomplete storage page");
  const platform = window.opener || window.parent;
  if (!platform || platform === window) throw new Error("no platform window");
  if (mode === "put") {
    await ask(platform, origin, target, "lti.put_data", { key, value: el.dataset.ltiValue });
    window.location.replace(el.dataset.ltiNext);
    return;
  }
  const answer = await ask(platform, origin, target, "lti.get_data", { key });
  const form = el.querySelector("form[data-lti-relay]");
  if (typeof answer.value !== "string" || answer.value === "" || !form) throw new Error("no value kept");
  form.elements.learn_browser.value = answer.value;
  form.submit();
}

// ask sends one storage message, under the subject the platform's
// capabilities name (the prefixed or the plain one) to the frame they
// name, else to target, and resolves with the platform's answer.
async function ask(platform, origin, target, subject, fields) {
  let frameName = target;
  let name = subject;
  try {
    const caps = await Promise.any([
      send(platform, origin, "lti.capabilities", {}),
      send(platform, origin, "org.imsglobal.lti.capabilities", {}),
    ]);
    const found = (caps.supported_messages || []).find(
      (m) => m && (m.subject === subject || m.subject === "org.imsglobal." + subject),
    );
    if (found) {
      name = found.subject;
      if (found.frame) frameName = found.frame;
    }
  } catch {
    // A platform that names lti_storage_target may answer no capabilities
    // request: use the plain subject and the named frame.
  }
  return send(frameOf(platform, frameName), origin, name, fields);
}

function frameOf(platform, name) {
  if (name && name !== "_parent") {
    try {
      const frame = platform.frames[name];
      if (frame) return frame;
    } catch {
      // Not reachable: ask the platform window itself.
    }
  }
  return platform;
}

function send(to, origin, subject, fields) {
  return new Promise((resolve, reject) => {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const id = "learn-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const timer = setTimeout(() => {
      window.removeEventListener("message", listen);
      reject(new Error(subject + ": no answer"));
    }, 3000);
    function listen(event) {
      const data = event.data;
      if (event.origin !== origin || !data || data.message_id !== id || data.subject !== subject + ".response") return;
      clearTimeout(timer);
      window.removeEventListener("message", listen);
      if (data.error) reject(new Error(subject + ": " + (data.error.message || data.error.code || "refused")));
      else resolve(data);
    }
    window.addEventListener("message", listen);
    to.postMessage({ ...fields, subject, message_id: id }, origin);
  });
}

function showFallback(el) {
  for (const block of el.querySelectorAll("[data-lti-fallback]")) block.hidden = false;
}
