/**
 * @file Tree-sitter grammar for high-level Regular Boardgames (RBG) files.
 *
 * The tree is for editors (highlighting, selections), not for checking a game: a directive's
 * body is a flat run of tokens grouped only by its brackets, because macros may expand to any
 * token sequence and only the macro expander (rbg-parser) knows what a body means. Brackets
 * are balanced in every directive of the corpus, so they give the tree its shape.
 */

/* eslint-disable arrow-parens */
/* eslint-disable camelcase */
/* eslint-disable-next-line spaced-comment */
/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Operators and punctuation with no bracket role (spec section 2.2, the longest symbols first).
const SYMBOLS = [
  '->>', '->', '+>', '==', '!=', '<=', '>=',
  '+', '-', '*', '/', '^', '.', ',', ';', ':', '~', '=', '<', '>', '!', '?', '$',
];

module.exports = grammar({
  name: 'rbg',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat(choice($.section, $.macro_definition)),

    // `#board = ...`, `#players = ...`, `#pieces = ...`, `#variables = ...`, `#rules = ...`
    section: $ => seq(
      '#',
      field('name', $.section_name),
      '=',
      optional(field('body', $.body)),
    ),

    section_name: _ => choice('board', 'players', 'pieces', 'variables', 'rules'),

    // `#name = body` or `#name(p1; p2) = body`
    macro_definition: $ => seq(
      '#',
      field('name', $.identifier),
      optional(field('parameters', $.parameters)),
      '=',
      optional(field('body', $.body)),
    ),

    parameters: $ => seq('(', optional(seq($.identifier, repeat(seq(';', $.identifier)))), ')'),

    body: $ => repeat1($._item),

    _item: $ => choice(
      $.macro_call,
      $.board_generator,
      $.group,
      $.on,
      $.off,
      $.assignment,
      $.comparison,
      $.pattern,
      $.identifier,
      $.number,
      $.string,
      ...SYMBOLS,
    ),

    // A name followed directly by `(` (no space): how every corpus game writes a macro call.
    // `left (x)` with a space stays a name followed by a group.
    macro_call: $ => seq(
      field('name', $.identifier),
      field('arguments', $.arguments),
    ),

    arguments: $ => seq(token.immediate('('), repeat($._item), ')'),

    // `rectangle(...)`, `hexagon(...)`, `cuboid(...)`
    board_generator: $ => seq(
      field('name', choice('rectangle', 'hexagon', 'cuboid')),
      field('arguments', alias($._generator_arguments, $.arguments)),
    ),

    _generator_arguments: $ => seq('(', repeat($._item), ')'),

    group: $ => seq('(', repeat($._item), ')'),

    // `{a, b}`: on (a set of pieces); also a low-level board node's edge list.
    on: $ => seq('{', repeat($._item), '}'),

    // `[a]`: off (placing a piece); also a low-level board node's piece and generator rows.
    off: $ => seq('[', repeat($._item), ']'),

    // `[$ x = 1, y = y + 1]`
    assignment: $ => seq('[$', repeat($._item), ']'),

    // `{$ x < 5}`
    comparison: $ => seq('{$', repeat($._item), '}'),

    // `{? moves}` and `{! moves}`
    pattern: $ => seq(choice('{?', '{!'), repeat($._item), '}'),

    identifier: _ => /[A-Za-z][A-Za-z0-9]*/,

    number: _ => /[0-9]+/,

    // Strings have no role in RBG; they are read and ignored.
    string: _ => /"[^"]*"/,

    comment: _ => token(choice(
      seq('//', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),
  },
});
