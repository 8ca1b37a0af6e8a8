//! The printed low-level form (spec section 14), byte for byte as the reference parser writes it.
//!
//! Layout (14.1): the board one vertex per line, then players, pieces, variables and the rules.
//! Rules (14.2): each node has a printing priority (alternative 1, concatenation 2, star and
//! comparison 3, other actions 4) and a child is parenthesised when its priority is below its
//! parent's threshold (concatenation 2, star 3, alternative 1). Arithmetic has its own
//! priorities: an operand of `+`/`*` is parenthesised if its priority is lower than the
//! operation's, an operand of `-`/`/` if it is lower or equal.
//!
//! [`PrintOptions`] are the reference's `-fnoop-*` flags (14.3), which insert no-ops for "split"
//! experiments; they are switched off inside patterns.

use std::fmt::Write;

use crate::ir::{Action, ActionKind, Arith, Game, Rule};

/// The `-fnoop-*` printer flags of the reference (all off by default).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print an alternative as `.( … )`.
    pub noop_before_alternative: bool,
    /// Prefix each branch of an alternative with `.`.
    pub noop_after_alternative: bool,
    /// Put `.` before every off and assignment.
    pub noop_before_modifier: bool,
    /// Put `.` after every off and assignment.
    pub noop_after_modifier: bool,
    /// Put `.` before every star.
    pub noop_before_star: bool,
    /// Print a star as `(. content)*`.
    pub noop_after_star: bool,
}

/// The low-level RBG text of a game, byte for byte as the reference parser writes it.
pub fn print_game(game: &Game) -> String {
    print_game_with(game, PrintOptions::default())
}

/// [`print_game`] with the reference's printer flags.
pub fn print_game_with(game: &Game, options: PrintOptions) -> String {
    let mut out = String::new();
    print_declarations_and_board(game, &mut out);
    out.push_str("#rules = \n");
    RulePrinter { game, options }.rule(&game.rules, 0, &mut out);
    out.push('\n');
    out
}

fn print_declarations_and_board(game: &Game, out: &mut String) {
    out.push_str("#board =\n");
    for vertex in &game.board.vertices {
        let piece = game.pieces.get(vertex.piece as usize).map_or("", String::as_str);
        let _ = write!(out, "    {}[{piece}]{{", vertex.name);
        for (i, edge) in vertex.edges.iter().enumerate() {
            let label = game.board.labels.get(edge.label as usize).map_or("", String::as_str);
            let target = game.board.vertices.get(edge.target as usize).map_or("", |v| v.name.as_str());
            let _ = write!(out, "{}{label}:{target}", if i == 0 { "" } else { "," });
        }
        out.push_str("}\n");
    }
    let bounded = |items: &[crate::ir::Bounded]| {
        items.iter().map(|b| format!("{}({})", b.name, b.bound)).collect::<Vec<_>>().join(",")
    };
    let _ = writeln!(out, "#players = {}", bounded(&game.players));
    let _ = writeln!(out, "#pieces = {}", game.pieces.join(","));
    let _ = writeln!(out, "#variables = {}", bounded(&game.variables));
}

struct RulePrinter<'g> {
    game: &'g Game,
    options: PrintOptions,
}

impl RulePrinter<'_> {
    fn priority(&self, rule: &Rule) -> u8 {
        let o = self.options;
        match rule {
            Rule::Alt(_) if o.noop_before_alternative => 2,
            Rule::Alt(_) => 1,
            Rule::Concat(_) => 2,
            Rule::Star(_) if o.noop_before_star => 2,
            Rule::Star(_) => 3,
            Rule::Action(Action { kind: ActionKind::Compare(..), .. }) => 3,
            Rule::Action(Action { kind: ActionKind::Off(_) | ActionKind::Assign(..), .. })
                if o.noop_before_modifier || o.noop_after_modifier =>
            {
                2
            }
            Rule::Action(_) => 4,
        }
    }

    /// Prints `rule`, parenthesised if its priority is below `threshold`.
    fn rule(&self, rule: &Rule, threshold: u8, out: &mut String) {
        let wrap = self.priority(rule) < threshold;
        if wrap {
            out.push('(');
        }
        match rule {
            Rule::Concat(children) => {
                for child in children {
                    self.rule(child, 2, out);
                }
            }
            Rule::Alt(children) => self.alternative(children, out),
            Rule::Star(body) => self.star(body, out),
            Rule::Action(action) => self.action(&action.kind, out),
        }
        if wrap {
            out.push(')');
        }
    }

    fn alternative(&self, children: &[Rule], out: &mut String) {
        if self.options.noop_before_alternative {
            out.push_str(".(");
        }
        for (i, child) in children.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { "\n+ " });
            if self.options.noop_after_alternative {
                out.push('.');
                self.rule(child, 2, out);
            } else {
                self.rule(child, 1, out);
            }
        }
        if !children.is_empty() {
            out.push('\n');
        }
        if self.options.noop_before_alternative {
            out.push(')');
        }
    }

    fn star(&self, body: &Rule, out: &mut String) {
        if self.options.noop_before_star {
            out.push('.');
        }
        if self.options.noop_after_star {
            out.push_str("(.");
            self.rule(body, 2, out);
            out.push(')');
        } else {
            self.rule(body, 3, out);
        }
        out.push('*');
    }

    fn action(&self, kind: &ActionKind, out: &mut String) {
        let game = self.game;
        let piece = |p: u32| game.pieces.get(p as usize).map_or("", String::as_str);
        let is_modifier = matches!(kind, ActionKind::Off(_) | ActionKind::Assign(..));
        if is_modifier && self.options.noop_before_modifier {
            out.push('.');
        }
        match kind {
            ActionKind::Shift(label) => {
                let _ = write!(out, "{} ", game.board.labels.get(*label as usize).map_or("", String::as_str));
            }
            ActionKind::On(pieces) => {
                let names: Vec<&str> = pieces.iter().map(|&p| piece(p)).collect();
                let _ = write!(out, "{{{}}}", names.join(","));
            }
            ActionKind::Off(p) => {
                let _ = write!(out, "[{}]", piece(*p));
            }
            ActionKind::Assign(variable, value) => {
                let _ = write!(out, "[$ {}=", var_name(game, *variable));
                arith(game, value, out);
                out.push(']');
            }
            ActionKind::Compare(left, op, right) => {
                out.push_str("{$ ");
                arith(game, left, out);
                out.push_str(op.as_str());
                arith(game, right, out);
                out.push('}');
            }
            ActionKind::Pattern { positive, body } => {
                out.push_str(if *positive { "{?" } else { "{!" });
                // The reference switches the printer flags off inside patterns.
                RulePrinter { game, options: PrintOptions::default() }.rule(body, 0, out);
                out.push('}');
            }
            ActionKind::SwitchPlayer(player) => {
                let _ =
                    write!(out, "->{} ", game.players.get(*player as usize).map_or("", |p| p.name.as_str()));
            }
            ActionKind::SwitchKeeper => out.push_str("->>"),
            ActionKind::Noop => out.push('.'),
        }
        if is_modifier && self.options.noop_after_modifier {
            out.push('.');
        }
    }
}

/// A variable's or score's name, without panicking on a malformed id.
fn var_name(game: &Game, variable: u32) -> &str {
    let v = variable as usize;
    match game.players.get(v) {
        Some(player) => &player.name,
        None => game.variables.get(v - game.players.len()).map_or("", |b| b.name.as_str()),
    }
}

fn arith_priority(value: &Arith) -> u8 {
    match value {
        Arith::Sum(_) | Arith::Difference(_) => 1,
        Arith::Product(_) | Arith::Quotient(_) => 3,
        Arith::Const(_) | Arith::Var(_) | Arith::Count(_) => 4,
    }
}

fn arith(game: &Game, value: &Arith, out: &mut String) {
    let (operands, sign, strict) = match value {
        Arith::Const(n) => {
            let _ = write!(out, "{n}");
            return;
        }
        Arith::Var(v) => {
            out.push_str(var_name(game, *v));
            return;
        }
        Arith::Count(p) => {
            out.push_str(game.pieces.get(*p as usize).map_or("", String::as_str));
            return;
        }
        Arith::Sum(operands) => (operands, '+', false),
        Arith::Difference(operands) => (operands, '-', true),
        Arith::Product(operands) => (operands, '*', false),
        Arith::Quotient(operands) => (operands, '/', true),
    };
    let own = arith_priority(value);
    for (i, operand) in operands.iter().enumerate() {
        if i > 0 {
            out.push(sign);
        }
        let inner = arith_priority(operand);
        let wrap = inner < own || (strict && inner == own);
        if wrap {
            out.push('(');
        }
        arith(game, operand, out);
        if wrap {
            out.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::build;

    const HEADER: &str =
        "#players = white(5), black(5)\n#pieces = e, w, b\n#variables = x(10), y(10), z(10)\n\
                          #board = rectangle(up,down,left,right, [e,w])\n#rules = ";

    /// The printed rules (the text after "#rules = \n", without the final newline).
    fn printed_rules(rules: &str) -> String {
        printed_rules_with(rules, PrintOptions::default())
    }

    fn printed_rules_with(rules: &str, options: PrintOptions) -> String {
        let game = build(&format!("{HEADER}{rules}")).game().clone();
        let text = print_game_with(&game, options);
        let start = text.find("#rules = \n").expect("rules line") + "#rules = \n".len();
        text[start..].strip_suffix('\n').expect("final newline").to_string()
    }

    #[test]
    fn full_example_of_section_14_2() {
        let input = "#players = white(1), black(1)\n#pieces = w, e\n#variables = moved(1)\n\
                     #board = rectangle(up,down,left,right, [e,w])\n\
                     #rules = ->white ((left + right) {e})* [w, e] [$ moved = 1, white = moved + 1] {? up} ->>";
        let expected = "#board =\n    rx0y0[e]{right:rx1y0}\n    rx1y0[w]{left:rx0y0}\n#players = white(1),black(1)\n\
                        #pieces = e,w\n#variables = moved(1)\n#rules = \n->white ((\nleft \n+ right \n){e})*(\n[w]\n+ [e]\n\
                        )[$ moved=1][$ white=moved+1]{?up }->>\n";
        let game = build(input).game().clone();
        assert_eq!(print_game(&game), expected);
        // Indices of the example: ->white=1, [w]=2, [e]=3, moved=1 -> 4, white=moved+1 -> 5, ->> = 6.
        let Rule::Concat(parts) = &game.rules else { panic!("concatenation expected") };
        let index = |rule: &Rule| match rule {
            Rule::Action(action) => action.index,
            _ => panic!("action expected"),
        };
        assert_eq!(index(&parts[0]), 1);
        assert_eq!(
            parts[2],
            Rule::Alt(vec![
                Rule::Action(Action { kind: ActionKind::Off(1), index: 2 }),
                Rule::Action(Action { kind: ActionKind::Off(0), index: 3 }),
            ])
        );
        assert_eq!((index(&parts[3]), index(&parts[4]), index(&parts[6])), (4, 5, 6));
        assert_eq!(game.modifiers, 6);
    }

    #[test]
    fn layout_of_empty_declarations_and_edgeless_vertices() {
        let game = build("#players = \n#pieces = e\n#variables = \n#board = rectangle(up,down,left,right, [e])\n#rules = {e}")
            .game()
            .clone();
        assert_eq!(
            print_game(&game),
            "#board =\n    rx0y0[e]{}\n#players = \n#pieces = e\n#variables = \n#rules = \n{e}\n"
        );
    }

    #[test]
    fn actions() {
        assert_eq!(
            printed_rules("up ->white ->> . {w, e} {} [b] {! down}"),
            "up ->white ->>.{e,w}{}[b]{!down }"
        );
        assert_eq!(printed_rules("[$ white = w] {$ black != b}"), "[$ white=w]{$ black!=b}");
    }

    #[test]
    fn rule_priorities_and_parentheses() {
        assert_eq!(printed_rules("up + down"), "\nup \n+ down \n");
        assert_eq!(printed_rules("(up + down)*"), "(\nup \n+ down \n)*");
        assert_eq!(printed_rules("(up down)*"), "(up down )*");
        assert_eq!(printed_rules("up* left"), "up *left ");
        assert_eq!(printed_rules("up (left + right down)"), "up (\nleft \n+ right down \n)");
        assert_eq!(printed_rules("{? up + down}"), "{?\nup \n+ down \n}");
        // A star over an action of priority 3 or 4 gets no parentheses (spec 14.4).
        assert_eq!(printed_rules("({e})*"), "{e}*");
        assert_eq!(printed_rules("({$ x < 1})*"), "{$ x<1}*");
        assert_eq!(printed_rules("(up*)*"), "up **");
        // An empty alternative prints as nothing.
        assert_eq!(printed_rules("up [] down"), "up ()down ");
    }

    #[test]
    fn arithmetic_parentheses() {
        let cases = [
            ("y - (z - 1)", "y-(z-1)"),
            ("(y - z) - 1", "(y-z)-1"),
            ("y - z - 1", "y-z-1"),
            ("y + z - 1", "y+z-1"),
            ("y - z + 1", "y-z+1"),
            ("(y + z) - 1", "(y+z)-1"),
            ("(y + z) * 2", "(y+z)*2"),
            ("y * z / 2", "y*z/2"),
            ("(y * z) / 2", "(y*z)/2"),
            ("y / z * 2", "y/z*2"),
            ("y / (z / 2)", "y/(z/2)"),
            ("y + z * 2", "y+z*2"),
            ("w + black", "w+black"),
        ];
        for (input, output) in cases {
            assert_eq!(printed_rules(&format!("[$ x = {input}]")), format!("[$ x={output}]"), "{input}");
        }
    }

    #[test]
    fn noop_printer_options_of_section_14_3() {
        let with = |rules: &str, options: PrintOptions| printed_rules_with(rules, options);
        let options = PrintOptions { noop_before_alternative: true, ..PrintOptions::default() };
        assert_eq!(with("(up + down) left", options), ".(\nup \n+ down \n)left ");
        let options = PrintOptions { noop_after_alternative: true, ..PrintOptions::default() };
        assert_eq!(with("up + down left", options), "\n.up \n+ .down left \n");
        let options = PrintOptions { noop_before_modifier: true, ..PrintOptions::default() };
        assert_eq!(with("[w] up [$ x=1]", options), ".[w]up .[$ x=1]");
        let options = PrintOptions { noop_after_modifier: true, ..PrintOptions::default() };
        assert_eq!(with("([w])*", options), "([w].)*");
        let options = PrintOptions { noop_before_star: true, ..PrintOptions::default() };
        assert_eq!(with("up* left", options), ".up *left ");
        let options = PrintOptions { noop_after_star: true, ..PrintOptions::default() };
        assert_eq!(with("up*", options), "(.up )*");
        // Switched off inside patterns.
        let options =
            PrintOptions { noop_before_modifier: true, noop_before_star: true, ..PrintOptions::default() };
        assert_eq!(with("{? [w] up*}", options), "{?[w]up *}");
    }
}
