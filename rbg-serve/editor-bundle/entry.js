// What the editor of `rbg serve` (static/editor.js) takes from CodeMirror 6: one module.
export { EditorState } from "@codemirror/state";
export { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export { StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching } from "@codemirror/language";
export { linter, lintGutter, forceLinting } from "@codemirror/lint";
