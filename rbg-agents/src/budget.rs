//! Search budgets: wall time, iterations and depth, in any combination.

use std::time::{Duration, Instant};

/// How much an agent may search for one move. Every limit that is set applies; the search stops
/// at the first one reached. What an "iteration" and a "depth" are depends on the agent:
///
/// | agent      | iteration                    | depth                                  |
/// |------------|------------------------------|----------------------------------------|
/// | random     | ignored                      | ignored                                |
/// | flat MC    | one playout                  | ignored (the search is one ply deep)   |
/// | MCTS       | one selection+playout+update | deepest tree node (plies below root)   |
/// | split MCTS | one selection+playout+update | whole moves below the root on a path   |
/// | alpha-beta | one node visited             | last iterative-deepening depth         |
///
/// An empty budget (nothing set) means the agent's own default (see each agent's config), so
/// that no search runs forever by accident. For the same reason the Monte Carlo agents add their
/// default iteration count to a budget that sets only a depth (a tree may never get that deep).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub time: Option<Duration>,
    pub iterations: Option<u64>,
    pub depth: Option<u32>,
}

impl Budget {
    pub fn iterations(n: u64) -> Self {
        Budget { iterations: Some(n), ..Budget::default() }
    }

    pub fn time(d: Duration) -> Self {
        Budget { time: Some(d), ..Budget::default() }
    }

    pub fn depth(d: u32) -> Self {
        Budget { depth: Some(d), ..Budget::default() }
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_none() && self.iterations.is_none() && self.depth.is_none()
    }

    /// Whether the budget bounds the amount of work by itself (a time or an iteration limit; a
    /// depth alone does not bound a Monte Carlo search).
    pub fn bounds_work(&self) -> bool {
        self.time.is_some() || self.iterations.is_some()
    }

    /// `self` with `iterations` added if it sets neither a time nor an iteration limit.
    pub fn with_default_iterations(self, iterations: u64) -> Budget {
        if self.bounds_work() {
            self
        } else {
            Budget { iterations: Some(iterations), ..self }
        }
    }

    /// `self` if it sets any limit, otherwise `fallback`.
    pub fn or(self, fallback: Budget) -> Budget {
        if self.is_empty() {
            fallback
        } else {
            self
        }
    }
}

/// A running budget: counts iterations against the limits and reads the clock.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    start: Instant,
    budget: Budget,
}

impl Meter {
    pub(crate) fn start(budget: Budget) -> Self {
        Meter { start: Instant::now(), budget }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether `iterations` done so far exhaust the budget. The clock is only read when a time
    /// limit is set.
    pub(crate) fn exhausted(&self, iterations: u64) -> bool {
        if self.budget.iterations.is_some_and(|n| iterations >= n) {
            return true;
        }
        self.budget.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    pub(crate) fn over_iterations(&self, iterations: u64) -> bool {
        self.budget.iterations.is_some_and(|n| iterations >= n)
    }

    pub(crate) fn over_time(&self) -> bool {
        self.budget.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether a tree search that has done `iterations` and reached `depth` stops: its budget
    /// is spent or its depth limit reached.
    pub(crate) fn search_over(&self, iterations: u64, depth: u32) -> bool {
        self.budget.depth.is_some_and(|d| depth >= d) || self.exhausted(iterations)
    }
}
