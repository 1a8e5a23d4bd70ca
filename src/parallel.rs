//! Work shared among threads with results in the order of the work: checking a folder of game
//! files on every core, while what is printed stays in the sorted order of the files; reading a
//! long file's documents in runs, one per core.
//!
//! The standard library's scoped threads are enough: the work comes in a few large pieces
//! (files, runs of documents), taken from one shared counter, so a pool or work stealing would
//! add a dependency and nothing measurable.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
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
    use super::map_in_order;

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
}
