; Highlighting of high-level RBG (capture names as Helix's themes know them).

(comment) @comment

(string) @string

(number) @constant.numeric.integer

; Directives: the five sections and macro definitions.
"#" @keyword.directive

(section_name) @keyword

(macro_definition
  name: (identifier) @function.macro)

(parameters
  (identifier) @variable.parameter)

(macro_call
  name: (identifier) @function.macro)

(board_generator
  name: _ @function.builtin)

; Pieces: names inside on `{...}` and off `[...]`.
(on
  (identifier) @type)

(off
  (identifier) @type)

; Variables: names assigned or compared.
(assignment
  (identifier) @variable)

(comparison
  (identifier) @variable)

; Player switches, keeper switches and pasting.
[
  "->"
  "->>"
] @keyword.control

"~" @operator

[
  "+"
  "-"
  "*"
  "/"
  "^"
  "="
  "=="
  "!="
  "<"
  "<="
  ">"
  ">="
  "!"
  "?"
  "$"
  "+>"
] @operator

"." @constant.builtin

[
  ","
  ";"
  ":"
] @punctuation.delimiter

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
  "[$"
  "{$"
  "{?"
  "{!"
] @punctuation.bracket
