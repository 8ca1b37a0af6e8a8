//! Growing the call stack on demand, for searches that recurse once per step.
//!
//! The compiled reasoners (`rbg-compiler`) search by calling one function per automaton node,
//! so a rule such as `(right {e})*` on a long board recurses once per cell. Rather than bound
//! that depth (the interpreter's explicit stack has no such bound, and both engines must agree),
//! the generated code checks the stack at every node that lies on a cycle of its call graph and,
//! when fewer than a red zone's bytes remain, continues on a fresh heap-allocated stack segment
//! (the `stacker` crate, which rustc uses for the same purpose).
//!
//! The check must be cheap, since it runs at every iteration of such a loop: the caller keeps
//! the lowest address it may reach ([`low_water_mark`]) in its scratch space, computed once per
//! search, and compares it with the address of a local ([`approximate_stack_pointer`]): one
//! comparison instead of a thread-local look-up per call. Generated crates depend on `rbg-core`
//! only, hence this module.

/// Size of each stack segment allocated when a search runs out of stack: enough for tens of
/// thousands of node frames, so segments (one `mmap` each) are rare.
pub const SEGMENT_BYTES: usize = 16 << 20;

use core::cell::Cell;

thread_local! {
    /// The part of this thread's own stack seen so far: its end (lowest address; 0 while not
    /// known) and the highest address a search started at. A search starting in that range
    /// runs on that stack, so its end need not be asked for again.
    static NATIVE_STACK: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// How many stack segments of [`on_new_segment`] this thread is running on.
    static SEGMENTS: Cell<u32> = const { Cell::new(0) };
}

/// The lowest stack address the current thread may reach, on the stack it is running on now,
/// while keeping `red_zone` bytes in reserve. `usize::MAX` when the platform does not say where
/// the stack ends: the first check then moves to a fresh segment, whose end is known.
///
/// Called at the start of every search, so the common case (the thread's own stack, already
/// seen) is two thread-local reads and two comparisons.
#[inline]
pub fn low_water_mark(red_zone: usize) -> usize {
    let here = approximate_stack_pointer();
    let (end, top) = NATIVE_STACK.with(Cell::get);
    if end < here && here <= top {
        return end.saturating_add(red_zone);
    }
    low_water_mark_slow(red_zone, here)
}

/// [`low_water_mark`] asking `stacker` where the current stack ends (it knows its own segments
/// too), and remembering the answer for the thread's own stack.
#[cold]
#[inline(never)]
fn low_water_mark_slow(red_zone: usize, here: usize) -> usize {
    let Some(remaining) = stacker::remaining_stack() else {
        return usize::MAX;
    };
    let end = here.saturating_sub(remaining);
    if SEGMENTS.with(Cell::get) == 0 {
        NATIVE_STACK.with(|native| {
            let (known_end, top) = native.get();
            // The same stack as before (same end): extend the range seen; else start anew.
            let top = if known_end == end { top.max(here) } else { here };
            native.set((end, top));
        });
    }
    end.saturating_add(red_zone)
}

/// An address in the current stack frame: the stack pointer, or near it.
///
/// Read with one instruction where the architecture allows: the address of a local would do,
/// but it makes the compiler keep that local in memory and, worse, stops it from turning a
/// node function's tail call to itself into a loop.
#[inline(always)]
pub fn approximate_stack_pointer() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let sp: usize;
        // SAFETY: reads a register into a fresh output; touches no memory, no stack, no flags.
        // `pure`: within one frame the stack pointer does not change, so the compiler may
        // reuse one reading, e.g. hoist it out of a loop it made from a tail call to itself.
        unsafe {
            core::arch::asm!("mov {}, rsp", out(reg) sp, options(pure, nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(target_arch = "aarch64")]
    {
        let sp: usize;
        // SAFETY: as above.
        unsafe {
            core::arch::asm!("mov {}, sp", out(reg) sp, options(pure, nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let probe = 0u8;
        core::hint::black_box(core::ptr::addr_of!(probe)) as usize
    }
}

/// Runs `f` on a fresh stack segment of at least `bytes` (at least [`SEGMENT_BYTES`]); the
/// segment is freed when `f` returns. Kept out of line: it runs once per segment.
#[cold]
#[inline(never)]
pub fn on_new_segment<R>(bytes: usize, f: impl FnOnce() -> R) -> R {
    SEGMENTS.with(|n| n.set(n.get() + 1));
    let result = stacker::grow(bytes.max(SEGMENT_BYTES), f);
    SEGMENTS.with(|n| n.set(n.get() - 1));
    result
}

/// Runs `f` on the current stack, or on a fresh segment when fewer than `red_zone` bytes of it
/// remain: for drivers that recurse once per step of a depth the caller chooses (perft's plies).
/// One thread-local read and a comparison on the common path.
#[inline]
pub fn with_room<R>(red_zone: usize, f: impl FnOnce() -> R) -> R {
    if approximate_stack_pointer() < low_water_mark(red_zone) {
        on_new_segment(red_zone.saturating_mul(4), f)
    } else {
        f()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recursion that uses the protocol above, as generated code does: `depth` frames of
    /// about 1 KiB each. A plain recursion this deep would overflow any default stack.
    fn deep(depth: u64, low: &mut usize) -> u64 {
        if approximate_stack_pointer() < *low {
            return on_new_segment(0, || {
                let saved = *low;
                *low = low_water_mark(64 << 10);
                let r = deep(depth, low);
                *low = saved;
                r
            });
        }
        if depth == 0 {
            return 0;
        }
        // Kept alive across the call, so every frame holds it.
        let padding = [depth as u8; 1024];
        let below = deep(depth - 1, low);
        core::hint::black_box(&padding);
        below + 1
    }

    #[test]
    fn deep_recursion_grows_the_stack_on_the_main_and_on_other_threads() {
        let mut low = low_water_mark(64 << 10);
        assert_eq!(deep(200_000, &mut low), 200_000);
        // Spawned threads have smaller stacks (2 MiB by default).
        let other = std::thread::spawn(|| {
            let mut low = low_water_mark(64 << 10);
            deep(200_000, &mut low)
        });
        assert_eq!(other.join().unwrap(), 200_000);
    }

    #[test]
    fn the_mark_is_below_the_current_frame() {
        let mark = low_water_mark(1 << 10);
        assert!(mark < approximate_stack_pointer());
    }
}
