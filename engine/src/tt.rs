//! The transposition table, shared by all search threads without locks.
//!
//! Each entry is two atomic words: the data, and the key xor-ed with the
//! data. A reader accepts an entry only if the two agree, so a torn write
//! from another thread reads as a miss rather than as wrong data. Moves from
//! the table are still checked with `Board::is_legal` before use.

use crate::score::{from_tt, to_tt};
use chess::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is at least this (a fail high).
    Lower,
    /// The score is at most this (a fail low).
    Upper,
    Exact,
}

impl Bound {
    /// Whether a score of this bound settles a node searched with the window
    /// (`alpha`, `beta`): exact, or a bound beyond the window's edge.
    #[inline(always)]
    pub(crate) fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// What a probe returns; the score is already relative to the probing node.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;

/// Four entries in one cache line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// Data word layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let bound = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    mv.to_bits() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | bound << 56
        | ((age & 63) as u64) << 58
}

fn unpack(data: u64) -> Option<(TtHit, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let hit = TtHit {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 255) as i32,
        bound,
    };
    Some((hit, (data >> 58) as u8))
}

/// Why the table could not be resized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    pub megabytes: usize,
    /// What the machine could give, when it says.
    pub available_megabytes: Option<u64>,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "could not allocate {} MB for the hash table",
            self.megabytes
        )?;
        match self.available_megabytes {
            Some(mb) => write!(f, " (the machine has about {mb} MB available)"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for AllocError {}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

/// Buckets one thread clears at a time: large enough that the split costs
/// nothing, small enough that the threads share the work evenly.
const CLEAR_CHUNK: usize = 1 << 14;

/// The pool that writes a table of `buckets` with `threads` threads (the
/// search's count): a table of many gigabytes is written by all of them at
/// once, as big machines need, and a small one by no more than it has
/// chunks. `None`: the calling thread writes it alone, without entering a
/// pool; entered from a worker of another pool (a tool labelling positions
/// on rayon's), a pool lets that worker run other jobs while it waits,
/// each on top of the last, until its stack overflows.
fn writers(threads: usize, buckets: usize) -> Option<rayon::ThreadPool> {
    let threads = threads.min(buckets.div_ceil(CLEAR_CHUNK));
    if threads <= 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
}

fn clear_buckets(buckets: &[Bucket]) {
    for e in buckets.iter().flat_map(|b| &b.entries) {
        e.check.store(0, Ordering::Relaxed);
        e.data.store(0, Ordering::Relaxed);
    }
}

impl TranspositionTable {
    /// A table of `megabytes`, its memory first written (the pages faulted
    /// in) by `threads` threads in parallel.
    pub fn new(megabytes: usize, threads: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = Self::check_room(megabytes)?;
        let error = AllocError {
            megabytes,
            available_megabytes: None,
        };
        let count = bytes / std::mem::size_of::<Bucket>();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| error)?;
        match writers(threads, count) {
            Some(pool) => pool.install(|| {
                (0..count)
                    .into_par_iter()
                    .with_min_len(CLEAR_CHUNK)
                    .map(|_| Bucket::default())
                    .collect_into_vec(&mut buckets)
            }),
            None => buckets.resize_with(count, Bucket::default),
        }
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// The bytes of a table of `megabytes`, or why the machine cannot
    /// give them now: a table too big is refused before it is allocated.
    pub fn check_room(megabytes: usize) -> Result<usize, AllocError> {
        let available = crate::memory::available_bytes();
        let error = AllocError {
            megabytes,
            available_megabytes: available.map(|b| b >> 20),
        };
        let bytes = megabytes.max(1).checked_mul(1 << 20).ok_or(error.clone())?;
        if available.is_some_and(|a| bytes as u64 > a) {
            return Err(error);
        }
        Ok(bytes)
    }

    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry (`ucinewgame`, `Clear Hash`), on `threads`
    /// threads in parallel.
    pub fn clear(&self, threads: usize) {
        match writers(threads, self.buckets.len()) {
            Some(pool) => {
                pool.install(|| self.buckets.par_chunks(CLEAR_CHUNK).for_each(clear_buckets))
            }
            None => clear_buckets(&self.buckets),
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed).wrapping_add(1) & 63;
        self.age.store(age, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache: the search calls it
    /// on making a move, so that the child's probe, a little later, finds
    /// the line there instead of waiting on memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        safe_arch::prefetch_t0(self.bucket(key));
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key {
                let (mut hit, _) = unpack(data)?;
                hit.score = from_tt(hit.score, ply);
                return Some(hit);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        // Replace the same position if present, else the entry whose depth,
        // discounted by how many searches ago it was written, is lowest.
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        let mut old_move = Move::NONE;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let decoded = unpack(data);
            if e.check.load(Ordering::Relaxed) ^ data == key && decoded.is_some() {
                let Some((old, _)) = decoded else { break };
                // Keep a deeper exact result of this same search.
                if bound != Bound::Exact && old.depth > depth + 3 && old.bound == Bound::Exact {
                    return;
                }
                victim = e;
                old_move = old.mv;
                break;
            }
            let worth = match decoded {
                None => i32::MIN,
                Some((old, old_age)) => {
                    let stale = (age.wrapping_sub(old_age) & 63) as i32;
                    old.depth - 8 * stale
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let mv = if mv.is_none() { old_move } else { mv };
        let data = pack(mv, to_tt(score, ply), eval, depth, bound, age);
        victim.check.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for e in &bucket.entries {
                if let Some((_, a)) = unpack(e.data.load(Ordering::Relaxed)) {
                    if a == age {
                        used += 1;
                    }
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * ENTRIES_PER_BUCKET)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::mate_in;
    use chess::Square;

    #[test]
    fn a_bound_settles_a_node_only_beyond_the_window() {
        let (alpha, beta) = (-10, 10);
        assert!(Bound::Exact.settles(0, alpha, beta));
        assert!(Bound::Lower.settles(10, alpha, beta));
        assert!(!Bound::Lower.settles(9, alpha, beta));
        assert!(Bound::Upper.settles(-10, alpha, beta));
        assert!(!Bound::Upper.settles(-9, alpha, beta));
    }

    #[test]
    fn tables_made_on_the_workers_of_another_pool_do_not_pile_up_its_jobs() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .stack_size(128 << 10)
            .build()
            .unwrap();
        let made: usize = pool.install(|| {
            (0..4000)
                .into_par_iter()
                .with_max_len(1)
                .map(|_| {
                    let tt = TranspositionTable::new(1, 1).unwrap();
                    tt.clear(1);
                    tt.megabytes()
                })
                .sum()
        });
        assert_eq!(made, 4000);
    }

    #[test]
    fn store_then_probe() {
        let tt = TranspositionTable::new(1, 1).unwrap();
        let m = Move::new(Square::E1, Square::F1);
        tt.store(0xDEAD_BEEF, m, -123, 45, 7, Bound::Lower, 3);
        let hit = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (m, -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1, 1).unwrap();
        tt.store(42, Move::NONE, mate_in(9), 0, 5, Bound::Exact, 4);
        assert_eq!(tt.probe(42, 4).unwrap().score, mate_in(9));
        assert_eq!(tt.probe(42, 2).unwrap().score, mate_in(7));
    }

    #[test]
    fn hashfull_counts_this_search_and_clear_empties() {
        let tt = TranspositionTable::new(1, 1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Move::NONE,
                0,
                0,
                1,
                Bound::Exact,
                0,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear(3);
        assert!(tt.probe(0x9E37_79B9_7F4A_7C15, 0).is_none());
    }

    #[test]
    fn tables_made_and_cleared_on_several_threads_are_whole_and_empty() {
        // Four threads, several chunks each: every entry starts empty and
        // every one is emptied again.
        let tt = TranspositionTable::new(9, 4).unwrap();
        assert_eq!(tt.megabytes(), 9);
        let keys: Vec<u64> = (1..200_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
        let m = Move::new(Square::E1, Square::F1);
        for &k in &keys {
            tt.store(k, m, 1, 2, 3, Bound::Exact, 0);
        }
        assert!(tt.buckets.iter().all(|b| b
            .entries
            .iter()
            .any(|e| e.data.load(Ordering::Relaxed) != 0)));
        tt.clear(4);
        assert!(tt
            .buckets
            .iter()
            .flat_map(|b| &b.entries)
            .all(|e| e.data.load(Ordering::Relaxed) == 0 && e.check.load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn impossible_size_fails_cleanly() {
        assert!(TranspositionTable::new(usize::MAX >> 21, 2).is_err());
        // More than the machine has, but small enough for the allocator
        // to promise it lazily: refused before any page is touched.
        if let Some(available) = crate::memory::available_bytes() {
            let mb = usize::try_from(available >> 20).unwrap() + 1024;
            let err = TranspositionTable::new(mb, 1).err().expect("refused");
            assert_eq!(err.megabytes, mb);
            assert!(err.to_string().contains("available"), "{err}");
        }
    }
}
