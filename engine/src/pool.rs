//! The search threads: created once, when the thread count changes, and kept
//! between searches with what each has learnt (its histories). A search is
//! handed to every thread as a job; thread 0 is the main thread, which
//! watches the clock, gathers the helpers' results and finishes the search.

use crate::history::History;
use crate::job::Job;
use crate::report::SearchResult;
use crate::search::Completed;
use eval::Evaluator;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Search threads recurse deeply; give them room.
const THREAD_STACK_BYTES: usize = 16 << 20;

/// What a search thread keeps from one search to the next.
#[derive(Default)]
pub(crate) struct ThreadState {
    pub history: History,
    pub evaluator: Evaluator,
}

enum Message {
    Main {
        job: Arc<Job>,
        helpers: Receiver<(usize, Completed)>,
        count: usize,
        done: Sender<SearchResult>,
    },
    Helper {
        job: Arc<Job>,
        result: Sender<(usize, Completed)>,
    },
}

struct Worker {
    /// Dropping it ends the thread.
    inbox: Sender<Message>,
    thread: JoinHandle<()>,
    state: Arc<Mutex<ThreadState>>,
}

#[derive(Default)]
pub(crate) struct Pool {
    workers: Vec<Worker>,
}

impl Pool {
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// Brings the pool to `threads` threads (at least one), keeping the
    /// states of those that stay. A thread the system refuses leaves the
    /// pool smaller.
    pub fn resize(&mut self, threads: usize) {
        let threads = threads.max(1);
        while self.workers.len() > threads {
            if let Some(worker) = self.workers.pop() {
                worker.stop();
            }
        }
        while self.workers.len() < threads {
            match Worker::spawn(self.workers.len()) {
                Some(worker) => self.workers.push(worker),
                None => break,
            }
        }
    }

    #[cfg(test)]
    pub fn thread_ids(&self) -> Vec<std::thread::ThreadId> {
        self.workers
            .iter()
            .map(|w| w.thread.thread().id())
            .collect()
    }

    /// Every thread's state, for forgetting what was learnt; only while no
    /// search runs.
    pub fn states(&self) -> impl Iterator<Item = MutexGuard<'_, ThreadState>> {
        self.workers.iter().map(|w| lock(&w.state))
    }

    /// Hands `job` to every thread; the returned receiver gets the result
    /// once the main thread has finished it. `None` when the pool has no
    /// thread.
    pub fn run(&self, job: Arc<Job>) -> Option<Receiver<SearchResult>> {
        let (main, helpers) = self.workers.split_first()?;
        let (result, results) = channel();
        for worker in helpers {
            let _ = worker.inbox.send(Message::Helper {
                job: Arc::clone(&job),
                result: result.clone(),
            });
        }
        let (done, finished) = channel();
        main.inbox
            .send(Message::Main {
                job,
                helpers: results,
                count: helpers.len(),
                done,
            })
            .ok()?;
        Some(finished)
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Every thread is told first, so that they end together.
        let threads: Vec<JoinHandle<()>> =
            self.workers.drain(..).map(|worker| worker.thread).collect();
        for thread in threads {
            // A thread that died has nothing left to hand back.
            let _ = thread.join();
        }
    }
}

impl Worker {
    fn spawn(id: usize) -> Option<Worker> {
        let (inbox, messages) = channel();
        let state = Arc::new(Mutex::new(ThreadState::default()));
        let thread_state = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(THREAD_STACK_BYTES)
            .spawn(move || work(id, &thread_state, &messages))
            .ok()?;
        Some(Worker {
            inbox,
            thread,
            state,
        })
    }

    fn stop(self) {
        drop(self.inbox);
        // A thread that died has nothing left to hand back.
        let _ = self.thread.join();
    }
}

fn lock(state: &Mutex<ThreadState>) -> MutexGuard<'_, ThreadState> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn work(id: usize, state: &Mutex<ThreadState>, messages: &Receiver<Message>) {
    while let Ok(message) = messages.recv() {
        let mut state = lock(state);
        match message {
            Message::Main {
                job,
                helpers,
                count,
                done,
            } => {
                let _ = done.send(job.main_thread(&mut state, &helpers, count));
            }
            Message::Helper { job, result } => {
                let _ = result.send((id, job.helper_thread(&mut state, id)));
            }
        }
    }
}
