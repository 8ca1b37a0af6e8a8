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

; A player's or variable's bound, `white(100)`, is written like a macro call. Helix gives a
; node the colour of the first pattern that matches it, so this one comes before the next.
(section
  name: (section_name) @_section
  body: (body
    (macro_call
      name: (identifier) @variable))
  (#any-of? @_section "players" "variables"))

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
