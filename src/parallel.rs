//! Work shared among threads with results in the order of the work: checking a folder of game
//! files on every core, while what is printed stays in the sorted order of the files; reading a
//! long file's documents in runs, one per core.
//!
//! The standard library's scoped threads are enough: the work comes in a few large pieces
//! (files, runs of documents), taken from one shared counter, so a pool or work stealing would
//! add a dependency and nothing measurable.
//!
//! Every thread this crate starts runs its work [`coloured`]: its stack moved down by about
//! as far as the stack of the thread that started it is into its page (for the main thread, a
//! distance the kernel draws anew for each process). Checking a signature stores to the stack
//! and loads from the signature library's tables in turn, and when the two addresses agree in
//! their low 12 bits the processor holds the load back (4K aliasing). Where a spawned thread's
//! stack sits within its page is fixed by the build. Measured on one build, with its threads'
//! stacks moved step by step across a page, `verify` of a folder took 92 ms of CPU at most
//! places and 95 to 109 ms at a few. Uncoloured, a build that lands on such a place is slower on
//! every run; coloured, a run is, now and then.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A page, the span whose low bits 4K aliasing compares.
const PAGE: usize = 4096;

/// How far the calling thread's stack is into its page: for a process's main thread, drawn by
/// the kernel when the process starts. Pass it to [`coloured`] in the threads this one starts.
#[must_use]
pub fn stack_colour() -> usize {
    let here = 0u8;
    std::hint::black_box(&raw const here) as usize % PAGE
}

/// Runs `f` with the stack moved about `colour` bytes further down within its page (see the
/// module's notes), in whole frames of [`lower`]. What `f` computes is unchanged.
pub fn coloured<R>(colour: usize, f: impl FnOnce() -> R) -> R {
    lower((colour % PAGE) / STEP, f)
}

/// The size of the padding in each frame of [`lower`]; the steps are a little larger.
const STEP: usize = 256;

/// `f`, called `steps` frames of at least [`STEP`] bytes further down the stack.
#[inline(never)]
fn lower<R>(steps: usize, f: impl FnOnce() -> R) -> R {
    if steps == 0 {
        return call(f);
    }
    // Kept alive across the call, so that the frame holds it while `f` runs below.
    let padding = [0u8; STEP];
    std::hint::black_box(&padding);
    let result = lower(steps - 1, f);
    std::hint::black_box(&padding);
    result
}

/// `f()` in a frame of its own: inlined into [`lower`], `f`'s locals would be in every frame of
/// the padding, and the steps as large as they are.
#[inline(never)]
fn call<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f` of each item, on up to `threads` threads, in the order of `items`.
pub fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(items.len()));
    let colour = stack_colour();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                coloured(colour, || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    done.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(mine);
                });
            });
        }
    });
    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::{PAGE, STEP, coloured, map_in_order};

    #[test]
    fn results_come_in_the_order_of_the_work_for_any_number_of_threads() {
        let items: Vec<u64> = (0..500).collect();
        let expected: Vec<u64> = items.iter().map(|n| n * n).collect();
        for threads in [0, 1, 2, 3, 8, 1000] {
            assert_eq!(
                map_in_order(&items, threads, |n| n * n),
                expected,
                "{threads}"
            );
        }
        assert!(map_in_order(&[] as &[u64], 4, |n| *n).is_empty());
    }

    #[test]
    fn coloured_runs_its_work_further_down_the_stack_by_the_colour_within_a_page() {
        let address = || {
            let here = 0u8;
            std::hint::black_box(&raw const here) as usize
        };
        let top = address();
        for colour in [0, 1, STEP - 1, STEP, 1000, PAGE - 1, PAGE, PAGE + 3 * STEP] {
            let (below, doubled) = coloured(colour, || (address(), 2 * colour));
            assert_eq!(doubled, 2 * colour, "the work's result is returned");
            // Work with a large frame of its own: the steps stay as they are.
            let (large, _) = coloured(colour, || {
                let scratch = [1u8; 2 * PAGE];
                (address(), std::hint::black_box(&scratch)[PAGE])
            });
            let steps = (colour % PAGE) / STEP;
            for (work, below) in [("small", below), ("large", large)] {
                let moved = top - below;
                // Each step is a frame holding STEP bytes, and a little more; unoptimised
                // builds make the frames larger still, but not twice as large. The large
                // work's own frame adds up to 2 pages.
                assert!(
                    moved >= steps * STEP && moved < steps * 2 * STEP + 3 * PAGE,
                    "colour {colour}, {work} work: moved {moved} bytes for {steps} steps"
                );
            }
            let spread = |colour: usize| {
                let moved = |c| {
                    top - coloured(c, || {
                        let scratch = [1u8; 2 * PAGE];
                        (address(), std::hint::black_box(&scratch)[0]).0
                    })
                };
                moved(colour) - moved(0)
            };
            let moved = spread(colour);
            assert!(
                moved >= steps * STEP && moved <= steps * 2 * STEP,
                "colour {colour}, large work: the steps took {moved} bytes, for {steps} steps"
            );
        }
    }
}
