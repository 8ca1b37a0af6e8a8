//! Switches: the on/off settings of the engines (optimisations and correctness checks), each
//! declared once.
//!
//! An options struct is written with [`option_switches!`](crate::option_switches): every switch
//! is one row giving its field, default, command-line name, kind and documentation. From that
//! row the macro generates the documented `bool` field, its value in `Default`, and a [`Switch`]
//! descriptor in the struct's `SWITCHES` table, and implements [`Switches`] (get and set by
//! name, nested option sets included). The command line builds its flags, the compiler its
//! fingerprint and docs/engines.md its list from these tables, so none of them can drift from the
//! structs. (The kinds of switch and the engines each affects are listed in docs/engines.md.)

/// What turning a switch away from its default is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchKind {
    /// On by default; off never changes the moves generated, only speed (to measure its gain or
    /// to bisect a miscompile).
    Optimisation,
    /// Off by default; on costs speed to check the game description.
    Check,
    /// Off by default; on does work the engine could skip, to measure what it costs.
    Measurement,
}

/// One switch of an options struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Kebab-case name; the command-line flag is `--no-<name>` for a switch on by default and
    /// `--<name>` for one off by default.
    pub name: &'static str,
    /// The command-line flag (without the leading `--`) that moves the switch away from its
    /// default.
    pub flag: &'static str,
    /// The field of the options struct.
    pub field: &'static str,
    /// Value in `Default`.
    pub default: bool,
    pub kind: SwitchKind,
    /// What the switch does (the field's documentation, lines joined).
    pub doc: &'static str,
}

impl Switch {
    /// The documentation as one line, with the spaces of the joined doc lines normalised.
    pub fn summary(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// Get and set the switches of an options value by name, including those of nested option
/// sets (e.g. the [`crate::ProgramOptions`] inside the compiler's options).
pub trait Switches {
    /// Every switch this value holds: nested sets first (in declaration order), then its own.
    fn all_switches() -> Vec<Switch>;
    /// The switch's current value; `None` when this value has no switch of that name.
    fn switch(&self, name: &str) -> Option<bool>;
    /// Sets the switch; returns false (and changes nothing) when there is no switch of that name.
    fn set_switch(&mut self, name: &str, on: bool) -> bool;
}

/// Declares an options struct whose `bool` settings are [`Switch`]es.
///
/// ```
/// rbg_automaton::option_switches! {
///     /// Example options.
///     #[derive(Clone, Debug, PartialEq, Eq)]
///     pub struct Example {
///         nested {}
///         fields {
///             /// A plain setting.
///             pub limit: usize = 7,
///         }
///         switches {
///             /// Go fast.
///             pub fast: bool = true, "fast", Optimisation;
///         }
///     }
/// }
/// use rbg_automaton::switches::Switches;
/// let mut e = Example::default();
/// assert_eq!((e.limit, e.fast), (7, true));
/// assert!(e.set_switch("fast", false) && !e.fast);
/// assert_eq!(Example::SWITCHES[0].flag, "no-fast");
/// ```
#[macro_export]
macro_rules! option_switches {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            nested { $( $(#[doc = $ndoc:literal])* pub $nfield:ident : $ntype:ty, )* }
            fields { $( $(#[doc = $fdoc:literal])* pub $ffield:ident : $ftype:ty = $fdefault:expr, )* }
            switches {
                $( $(#[doc = $sdoc:literal])+
                   pub $sfield:ident : bool = $sdefault:literal, $sname:literal, $skind:ident; )*
            }
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[doc = $ndoc])* pub $nfield: $ntype, )*
            $( $(#[doc = $fdoc])* pub $ffield: $ftype, )*
            $( $(#[doc = $sdoc])+ pub $sfield: bool, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $nfield: <$ntype as Default>::default(), )*
                    $( $ffield: $fdefault, )*
                    $( $sfield: $sdefault, )*
                }
            }
        }

        impl $name {
            /// The switches declared by this struct itself (not those of nested option sets).
            pub const SWITCHES: &'static [$crate::switches::Switch] = &[
                $( $crate::switches::Switch {
                    name: $sname,
                    flag: if $sdefault { concat!("no-", $sname) } else { $sname },
                    field: stringify!($sfield),
                    default: $sdefault,
                    kind: $crate::switches::SwitchKind::$skind,
                    doc: concat!($($sdoc),+),
                }, )*
            ];
        }

        impl $crate::switches::Switches for $name {
            fn all_switches() -> Vec<$crate::switches::Switch> {
                #[allow(unused_mut)]
                let mut all = Vec::new();
                $( all.extend(<$ntype as $crate::switches::Switches>::all_switches()); )*
                all.extend_from_slice(Self::SWITCHES);
                all
            }

            fn switch(&self, name: &str) -> Option<bool> {
                $( if let Some(on) = $crate::switches::Switches::switch(&self.$nfield, name) {
                    return Some(on);
                } )*
                match name {
                    $( $sname => Some(self.$sfield), )*
                    _ => None,
                }
            }

            fn set_switch(&mut self, name: &str, on: bool) -> bool {
                $( if $crate::switches::Switches::set_switch(&mut self.$nfield, name, on) {
                    return true;
                } )*
                match name {
                    $( $sname => {
                        self.$sfield = on;
                        true
                    } )*
                    _ => false,
                }
            }
        }
    };
}
