//! Types of rules expressions and the typing rules (spec section 8).
//!
//! Every syntax node gets a type when it is built, bottom-up, while parsing (the parser needs the
//! type of a primary to know whether a following `*` is a suffix, section 7.3). Operator nodes
//! are typed by [`type_operator`], brackets and suffixes by [`type_group`]. Failures produce the
//! reference's messages, e.g. "addition cannot be applied to: on move, unsigned integer" or
//! "condition brackets cannot be applied to move expression (with star)".

/// The type of an expression node; the names are the ones used in messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A negative literal (never arithmetic).
    Integer,
    UnsignedInteger,
    Variable,
    PieceName,
    PlayerName,
    Assignment,
    AssignmentsSequence,
    PiecesSequence,
    IntegerComparison,
    ArithmeticExpression,
    /// A pattern `{? …}` or `{! …}`.
    MoveCheck,
    /// A comparison move `{$ …}`.
    ArithmeticCheck,
    ShiftMove,
    OffsMove,
    OnMove,
    AssignmentsMove,
    MoveExpression,
}

impl Ty {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Ty::Integer => "integer",
            Ty::UnsignedInteger => "unsigned integer",
            Ty::Variable => "variable",
            Ty::PieceName => "piece name",
            Ty::PlayerName => "player name",
            Ty::Assignment => "assignment",
            Ty::AssignmentsSequence => "assignments sequence",
            Ty::PiecesSequence => "pieces sequence",
            Ty::IntegerComparison => "integer comparison",
            Ty::ArithmeticExpression => "arithmetic expression",
            Ty::MoveCheck => "move check",
            Ty::ArithmeticCheck => "arithmetic check",
            Ty::ShiftMove => "shift move",
            Ty::OffsMove => "offs move",
            Ty::OnMove => "on move",
            Ty::AssignmentsMove => "assignments move",
            Ty::MoveExpression => "move expression",
        }
    }

    /// Accepted where a move is required.
    pub(crate) fn is_move(self) -> bool {
        matches!(
            self,
            Ty::ShiftMove
                | Ty::OnMove
                | Ty::OffsMove
                | Ty::AssignmentsMove
                | Ty::ArithmeticCheck
                | Ty::MoveCheck
                | Ty::MoveExpression
        )
    }

    /// Accepted where arithmetic is required (signed literals are not).
    pub(crate) fn is_arithmetic(self) -> bool {
        matches!(
            self,
            Ty::UnsignedInteger | Ty::Variable | Ty::PlayerName | Ty::PieceName | Ty::ArithmeticExpression
        )
    }

    fn is_assignable(self) -> bool {
        matches!(self, Ty::Variable | Ty::PlayerName)
    }

    fn is_piece_list(self) -> bool {
        matches!(self, Ty::PieceName | Ty::PiecesSequence)
    }

    fn is_assignment_list(self) -> bool {
        matches!(self, Ty::Assignment | Ty::AssignmentsSequence)
    }
}

/// Binary operators (and juxtaposition), each on its own precedence level (spec 7.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    Comma,
    Assign,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    Plus,
    Minus,
    Times,
    Divide,
    /// Juxtaposition: concatenation.
    Concat,
}

impl Operator {
    /// The reference's precedence levels; higher binds tighter.
    pub(crate) fn level(self) -> u8 {
        match self {
            Operator::Comma => 30,
            Operator::Assign => 40,
            Operator::Less => 41,
            Operator::LessEqual => 42,
            Operator::Greater => 43,
            Operator::GreaterEqual => 44,
            Operator::Equal => 45,
            Operator::NotEqual => 46,
            Operator::Plus => 51,
            Operator::Minus => 52,
            Operator::Times => 53,
            Operator::Divide => 54,
            Operator::Concat => 90,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Operator::Comma => "comma",
            Operator::Assign => "assignment",
            Operator::Less => "less",
            Operator::LessEqual => "less or equal",
            Operator::Greater => "greater",
            Operator::GreaterEqual => "greater or equal",
            Operator::Equal => "equal",
            Operator::NotEqual => "not equal",
            Operator::Plus => "addition",
            Operator::Minus => "subtraction",
            Operator::Times => "multiplication",
            Operator::Divide => "division",
            Operator::Concat => "concatenation",
        }
    }

    pub(crate) fn is_relational(self) -> bool {
        matches!(
            self,
            Operator::Less
                | Operator::LessEqual
                | Operator::Greater
                | Operator::GreaterEqual
                | Operator::Equal
                | Operator::NotEqual
        )
    }
}

/// What encloses a primary: a bracket kind, or nothing for a bare leaf with a suffix.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bracket {
    /// A leaf (label, switch, `.`) carrying a suffix.
    None,
    /// `( … )`
    Round,
    /// `{? … }`
    Condition,
    /// `{! … }`
    NegatedCondition,
    /// `[ … ]`
    Off,
    /// `[$ … ]`
    Assignment,
    /// `{$ … }`
    Comparison,
    /// `{ … }`
    On,
}

impl Bracket {
    fn name(self) -> &'static str {
        match self {
            Bracket::None => "no brackets",
            Bracket::Round => "standard brackets",
            Bracket::Condition => "condition brackets",
            Bracket::NegatedCondition => "negated condtition brackets",
            Bracket::Off => "modifier bracket",
            Bracket::Assignment => "assignment bracket",
            Bracket::Comparison => "comparison bracket",
            Bracket::On => "curly on bracket",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Suffix {
    None,
    Star,
    /// `^n`
    Power(u32),
}

impl Suffix {
    fn name(self) -> &'static str {
        match self {
            Suffix::None => "no suffix",
            Suffix::Star => "star",
            Suffix::Power(_) => "number power",
        }
    }
}

/// The type of an operator node, or the message "OP cannot be applied to: T1, T2, …".
pub(crate) fn type_operator(op: Operator, operands: &[Ty]) -> Result<Ty, String> {
    let all = |pred: fn(Ty) -> bool| operands.iter().all(|&t| pred(t));
    let pair =
        |left: fn(Ty) -> bool, right: fn(Ty) -> bool| matches!(operands, [l, r] if left(*l) && right(*r));
    let ty = match op {
        Operator::Concat if all(Ty::is_move) => Some(Ty::MoveExpression),
        Operator::Plus if all(Ty::is_move) => Some(Ty::MoveExpression),
        Operator::Plus | Operator::Minus | Operator::Times | Operator::Divide if all(Ty::is_arithmetic) => {
            Some(Ty::ArithmeticExpression)
        }
        Operator::Comma if all(|t| t == Ty::PieceName) => Some(Ty::PiecesSequence),
        Operator::Comma if all(|t| t == Ty::Assignment) => Some(Ty::AssignmentsSequence),
        Operator::Assign if pair(Ty::is_assignable, Ty::is_arithmetic) => Some(Ty::Assignment),
        _ if op.is_relational() && pair(Ty::is_arithmetic, Ty::is_arithmetic) => Some(Ty::IntegerComparison),
        _ => None,
    };
    ty.ok_or_else(|| {
        let names: Vec<&str> = operands.iter().map(|t| t.name()).collect();
        format!("{} cannot be applied to: {}", op.name(), names.join(", "))
    })
}

/// The type of a bracketed (or suffixed) primary whose content has type `content`, or the
/// message "BRACKET cannot be applied to T (with SUFFIX)".
pub(crate) fn type_group(bracket: Bracket, suffix: Suffix, content: Ty) -> Result<Ty, String> {
    let plain = suffix == Suffix::None;
    let ty = match bracket {
        Bracket::None if plain => Some(content),
        Bracket::None | Bracket::Round if content.is_move() => Some(Ty::MoveExpression),
        Bracket::Round if plain && content.is_arithmetic() => Some(Ty::ArithmeticExpression),
        Bracket::Condition | Bracket::NegatedCondition if plain && content.is_move() => Some(Ty::MoveCheck),
        Bracket::Off if plain && content.is_piece_list() => Some(Ty::OffsMove),
        Bracket::On if plain && content.is_piece_list() => Some(Ty::OnMove),
        Bracket::Assignment if plain && content.is_assignment_list() => Some(Ty::AssignmentsMove),
        Bracket::Comparison if plain && content == Ty::IntegerComparison => Some(Ty::ArithmeticCheck),
        _ => None,
    };
    ty.ok_or_else(|| {
        format!("{} cannot be applied to {} (with {})", bracket.name(), content.name(), suffix.name())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_type_per_section_8_3() {
        use Ty::*;
        assert_eq!(type_operator(Operator::Concat, &[ShiftMove, OnMove]), Ok(MoveExpression));
        assert_eq!(type_operator(Operator::Plus, &[ShiftMove, MoveCheck]), Ok(MoveExpression));
        assert_eq!(type_operator(Operator::Plus, &[PieceName, PlayerName]), Ok(ArithmeticExpression));
        assert_eq!(type_operator(Operator::Minus, &[Variable, UnsignedInteger]), Ok(ArithmeticExpression));
        assert_eq!(
            type_operator(Operator::Times, &[ArithmeticExpression, PieceName]),
            Ok(ArithmeticExpression)
        );
        assert_eq!(
            type_operator(Operator::Divide, &[UnsignedInteger, UnsignedInteger]),
            Ok(ArithmeticExpression)
        );
        assert_eq!(type_operator(Operator::Comma, &[PieceName, PieceName, PieceName]), Ok(PiecesSequence));
        assert_eq!(type_operator(Operator::Comma, &[Assignment, Assignment]), Ok(AssignmentsSequence));
        assert_eq!(type_operator(Operator::Assign, &[PlayerName, PieceName]), Ok(Assignment));
        assert_eq!(type_operator(Operator::Assign, &[Variable, ArithmeticExpression]), Ok(Assignment));
        for op in [
            Operator::Less,
            Operator::LessEqual,
            Operator::Greater,
            Operator::GreaterEqual,
            Operator::Equal,
            Operator::NotEqual,
        ] {
            assert_eq!(type_operator(op, &[Variable, UnsignedInteger]), Ok(IntegerComparison));
        }
    }

    #[test]
    fn operator_failures_name_every_operand() {
        use Ty::*;
        let err = |op, tys: &[Ty]| type_operator(op, tys).unwrap_err();
        assert_eq!(
            err(Operator::Plus, &[OnMove, UnsignedInteger]),
            "addition cannot be applied to: on move, unsigned integer"
        );
        assert_eq!(
            err(Operator::Concat, &[PieceName, PieceName]),
            "concatenation cannot be applied to: piece name, piece name"
        );
        // Signed literals are not arithmetic.
        assert_eq!(
            err(Operator::Assign, &[Variable, Integer]),
            "assignment cannot be applied to: variable, integer"
        );
        // Pieces cannot be assigned; chains have three operands.
        assert_eq!(
            err(Operator::Assign, &[PieceName, UnsignedInteger]),
            "assignment cannot be applied to: piece name, unsigned integer"
        );
        assert_eq!(
            err(Operator::Less, &[Variable, Variable, Variable]),
            "less cannot be applied to: variable, variable, variable"
        );
        // A comparison is not arithmetic, so it cannot be assigned.
        assert_eq!(
            err(Operator::Assign, &[Variable, IntegerComparison]),
            "assignment cannot be applied to: variable, integer comparison"
        );
        // Lists hold single items only.
        assert_eq!(
            err(Operator::Comma, &[PieceName, Assignment]),
            "comma cannot be applied to: piece name, assignment"
        );
        assert_eq!(
            err(Operator::Comma, &[PiecesSequence, PieceName]),
            "comma cannot be applied to: pieces sequence, piece name"
        );
        assert_eq!(
            err(Operator::Minus, &[ShiftMove, ShiftMove]),
            "subtraction cannot be applied to: shift move, shift move"
        );
        assert_eq!(
            err(Operator::Times, &[OnMove, Variable]),
            "multiplication cannot be applied to: on move, variable"
        );
        assert_eq!(
            err(Operator::Divide, &[Variable, Integer]),
            "division cannot be applied to: variable, integer"
        );
        assert_eq!(
            err(Operator::GreaterEqual, &[MoveExpression, Variable]),
            "greater or equal cannot be applied to: move expression, variable"
        );
    }

    #[test]
    fn brackets_type_per_section_8_3() {
        use Ty::*;
        assert_eq!(type_group(Bracket::Round, Suffix::Star, OnMove), Ok(MoveExpression));
        assert_eq!(type_group(Bracket::Round, Suffix::Power(2), ShiftMove), Ok(MoveExpression));
        assert_eq!(type_group(Bracket::Round, Suffix::None, Variable), Ok(ArithmeticExpression));
        assert_eq!(type_group(Bracket::None, Suffix::Star, ShiftMove), Ok(MoveExpression));
        assert_eq!(type_group(Bracket::On, Suffix::None, PiecesSequence), Ok(OnMove));
        assert_eq!(type_group(Bracket::On, Suffix::None, PieceName), Ok(OnMove));
        assert_eq!(type_group(Bracket::Off, Suffix::None, PiecesSequence), Ok(OffsMove));
        assert_eq!(type_group(Bracket::Assignment, Suffix::None, Assignment), Ok(AssignmentsMove));
        assert_eq!(type_group(Bracket::Assignment, Suffix::None, AssignmentsSequence), Ok(AssignmentsMove));
        assert_eq!(type_group(Bracket::Comparison, Suffix::None, IntegerComparison), Ok(ArithmeticCheck));
        assert_eq!(type_group(Bracket::Condition, Suffix::None, MoveExpression), Ok(MoveCheck));
        assert_eq!(type_group(Bracket::NegatedCondition, Suffix::None, ShiftMove), Ok(MoveCheck));
    }

    #[test]
    fn bracket_failures_name_bracket_content_and_suffix() {
        use Ty::*;
        let err = |b, s, t| type_group(b, s, t).unwrap_err();
        assert_eq!(
            err(Bracket::Condition, Suffix::Star, MoveExpression),
            "condition brackets cannot be applied to move expression (with star)"
        );
        assert_eq!(
            err(Bracket::NegatedCondition, Suffix::Power(2), ShiftMove),
            "negated condtition brackets cannot be applied to shift move (with number power)"
        );
        // `()`, `{?}`, `[$]`, `{$}` hold the empty expression, a pieces sequence.
        assert_eq!(
            err(Bracket::Round, Suffix::None, PiecesSequence),
            "standard brackets cannot be applied to pieces sequence (with no suffix)"
        );
        assert_eq!(
            err(Bracket::Condition, Suffix::None, PiecesSequence),
            "condition brackets cannot be applied to pieces sequence (with no suffix)"
        );
        assert_eq!(
            err(Bracket::Assignment, Suffix::None, PiecesSequence),
            "assignment bracket cannot be applied to pieces sequence (with no suffix)"
        );
        assert_eq!(
            err(Bracket::Comparison, Suffix::None, PiecesSequence),
            "comparison bracket cannot be applied to pieces sequence (with no suffix)"
        );
        assert_eq!(
            err(Bracket::Round, Suffix::Star, Variable),
            "standard brackets cannot be applied to variable (with star)"
        );
        // `{a + b}` is an addition.
        assert_eq!(
            err(Bracket::On, Suffix::None, ArithmeticExpression),
            "curly on bracket cannot be applied to arithmetic expression (with no suffix)"
        );
        assert_eq!(
            err(Bracket::Off, Suffix::None, Variable),
            "modifier bracket cannot be applied to variable (with no suffix)"
        );
        assert_eq!(
            err(Bracket::None, Suffix::Star, PieceName),
            "no brackets cannot be applied to piece name (with star)"
        );
    }
}
