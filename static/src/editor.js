// The code editor of exercise panels: CodeMirror 6 with Python
// highlighting, over the plain <textarea> that works without JavaScript.
// The textarea stays in the form and always holds the editor's text.
import { EditorState } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  syntaxHighlighting, HighlightStyle, indentUnit, bracketMatching, indentOnInput,
} from "@codemirror/language";
import { tags } from "@lezer/highlight";

// Token colours come from CSS variables that app.css sets for the light and
// dark themes, chosen for enough contrast on the code background.
const themeColours = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "var(--cm-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--cm-string)" },
  { tag: tags.comment, color: "var(--cm-comment)", fontStyle: "italic" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--cm-number)" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: "var(--cm-def)" },
  { tag: [tags.className, tags.typeName, tags.self], color: "var(--cm-type)" },
  { tag: [tags.operator, tags.punctuation, tags.bracket], color: "var(--cm-operator)" },
  { tag: tags.invalid, color: "var(--cm-invalid)" },
]);

const nonceMeta = document.querySelector('meta[name="learn-style-nonce"]');
const styleNonce = nonceMeta ? nonceMeta.content : "";

function attach(textarea) {
  const form = textarea.form;
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  const runButton = form.querySelector('button[value="run"]');
  const view = new EditorView({
    parent: textarea.parentElement,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        python(),
        // Long lines wrap rather than scroll sideways, so nothing is hidden
        // from keyboard users or on narrow screens.
        EditorView.lineWrapping,
        syntaxHighlighting(themeColours),
        keymap.of([
          {
            key: "Mod-Enter",
            run: () => {
              form.requestSubmit(runButton);
              return true;
            },
          },
          // Tab indents; Escape then Tab leaves the editor, as CodeMirror documents.
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        // The page's Content-Security-Policy admits CodeMirror's own
        // stylesheet by this per-response nonce.
        EditorView.cspNonce.of(styleNonce),
        EditorView.contentAttributes.of({
          "aria-label": label ? label.textContent : "Python code",
          "data-testid": "editor",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) textarea.value = update.state.doc.toString();
        }),
      ],
    }),
  });
  textarea.insertAdjacentElement("afterend", view.dom);
  textarea.hidden = true;
  // The keys hint speaks of this editor, so it shows only once it is here.
  const keys = form.querySelector(".editor-keys");
  if (keys) keys.hidden = false;
  if (label) label.addEventListener("click", () => view.focus());
  // Tests and scripts can set the code through the textarea's editor.
  textarea.editorView = view;
  textarea.addEventListener("learn:set-code", (e) => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: e.detail } });
  });
}

for (const textarea of document.querySelectorAll("textarea[data-editor]")) attach(textarea);
