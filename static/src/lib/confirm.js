// Destructive forms carry data-confirm, the question to ask. Without this
// script the server asks on a page of its own; with it, a dialog asks in
// place and, once confirmed, the form posts with confirm=yes, which the
// server takes as the answer.

function ask(form) {
  const dialog = document.createElement("dialog");
  dialog.className = "confirm-dialog";
  dialog.setAttribute("aria-labelledby", "confirm-dialog-text");
  const text = document.createElement("p");
  text.id = "confirm-dialog-text";
  text.textContent = form.dataset.confirm;
  const buttons = document.createElement("div");
  buttons.className = "button-row";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "danger";
  const submit = form.querySelector('button[type="submit"], button:not([type])');
  ok.textContent = (submit && submit.textContent.trim()) || "Yes";
  buttons.append(cancel, ok);
  dialog.append(text, buttons);
  document.body.append(dialog);
  // Closed without confirming (Cancel or Escape): back to the button the
  // learner or teacher pressed, so the keyboard stays where it was.
  let confirmed = false;
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (!confirmed && submit) submit.focus();
  });
  ok.addEventListener("click", () => {
    confirmed = true;
    const yes = document.createElement("input");
    yes.type = "hidden";
    yes.name = "confirm";
    yes.value = "yes";
    form.append(yes);
    dialog.close();
    form.submit();
  });
  dialog.showModal();
  cancel.focus();
}

document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (!form || form.querySelector('input[name="confirm"][value="yes"]')) return;
  if (typeof HTMLDialogElement !== "function") return; // the server asks instead
  event.preventDefault();
  ask(form);
});
