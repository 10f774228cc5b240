//! The games of a `pacru.vector` batch, row after row ([`Games`]).

use crate::decision::Game;
use crate::drops::drop_on_pool;
use crate::par::try_with_capacity;

/// The games of a batch, row after row, in the contiguous parts that the threads of the
/// call that made them returned: kept as they are (gathering them in one vector would copy
/// every game on the calling thread). Each part is freed by the kind of thread that made
/// it (see `Drop`).
pub struct Games {
    parts: Vec<Vec<Game>>,
    /// The first row of each part, then the number of rows.
    starts: Vec<usize>,
    /// Whether each part was made on a worker of the pool (else on the calling thread).
    on_pool: Vec<bool>,
}

impl Games {
    /// The parts of a call (`par::chunks`, whose parts any thread may have made): the
    /// first freed on the calling thread, the others on the pool.
    pub fn new(parts: Vec<Vec<Game>>) -> Games {
        let made = parts.into_iter().enumerate().map(|(i, part)| (part, i > 0));
        Games::made(made.collect())
    }

    /// The parts, each with whether a worker of the pool made it.
    pub fn made(parts: Vec<(Vec<Game>, bool)>) -> Games {
        let mut starts = Vec::with_capacity(parts.len() + 1);
        let mut at = 0;
        starts.push(at);
        for (part, _) in &parts {
            at += part.len();
            starts.push(at);
        }
        let (parts, on_pool) = parts.into_iter().unzip();
        Games {
            parts,
            starts,
            on_pool,
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `row`, or None past the last.
    pub fn get(&self, row: usize) -> Option<&Game> {
        let i = self.starts.partition_point(|&s| s <= row).checked_sub(1)?;
        self.parts.get(i)?.get(row - self.starts[i])
    }

    /// The games cut at the row ends `ends` (ascending, the last the number of games):
    /// each piece's games, as the slices of the parts it spans, in order. A step in place
    /// hands each piece to the thread that claims it.
    pub fn pieces_mut(&mut self, ends: &[usize]) -> Vec<Vec<&mut [Game]>> {
        let mut parts = self.parts.iter_mut().map(Vec::as_mut_slice);
        let mut current: &mut [Game] = &mut [];
        let mut pieces = Vec::with_capacity(ends.len());
        let mut start = 0;
        for &end in ends {
            let mut piece = Vec::new();
            let mut need = end.saturating_sub(start);
            while need > 0 {
                if current.is_empty() {
                    match parts.next() {
                        Some(part) => current = part,
                        None => break,
                    }
                    continue;
                }
                let take = need.min(current.len());
                let (head, tail) = std::mem::take(&mut current).split_at_mut(take);
                need -= head.len();
                piece.push(head);
                current = tail;
            }
            pieces.push(piece);
            start = end;
        }
        pieces
    }

    /// The games of rows `a..b` (those of the batch among them), in order.
    pub fn range(&self, a: usize, b: usize) -> impl Iterator<Item = &Game> {
        self.parts
            .iter()
            .zip(&self.starts)
            .flat_map(move |(part, &s)| {
                let lo = a.saturating_sub(s).min(part.len());
                let hi = b.saturating_sub(s).clamp(lo, part.len());
                part[lo..hi].iter()
            })
    }
}

impl std::ops::Index<usize> for Games {
    type Output = Game;

    /// Game `row` (rows are checked against the batch before they are looked up).
    fn index(&self, row: usize) -> &Game {
        match self.get(row) {
            Some(game) => game,
            None => panic!("no game {row} in a batch of {}", self.len()),
        }
    }
}

impl Drop for Games {
    /// Frees each part of the games on the kind of thread that made it: those a worker
    /// made on the pool, between the pieces of the next calls
    /// ([`crate::drops::drop_on_pool`]), the others here. A game's last reference to a
    /// move list frees it, and glibc frees a block fastest on a thread of the arena it
    /// came from: the calling thread freeing everything is a good share of what a step
    /// cannot split, a worker freeing the caller's blocks holds the lock of the arena
    /// that the caller's Python allocates from (two threads at batch 1,024: 1.56x one
    /// thread this way, 1.36x with every part on the pool and 1.37x with every part
    /// here, medians of five runs in alternation).
    fn drop(&mut self) {
        let mut parts = std::mem::take(&mut self.parts);
        let on_pool = std::mem::take(&mut self.on_pool);
        // No room to sort the parts: all of them here.
        let Ok(mut mine) = try_with_capacity(parts.len()) else {
            parts.into_iter().flatten().for_each(Game::retire);
            return;
        };
        for (part, &pool) in parts.iter_mut().zip(&on_pool) {
            if !pool {
                mine.push(std::mem::take(part));
            }
        }
        parts.retain(|part| !part.is_empty());
        if !parts.is_empty() {
            drop_on_pool(parts, Game::retire);
        }
        mine.into_iter().flatten().for_each(Game::retire);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::Layout;
    use pacru_engine::{Position, Rules};

    fn game() -> Game {
        let layout = Layout {
            rules: Rules::new(pacru_engine::Game::Pacru),
            players: 2,
            game_index: 3,
            ply_scale: 1000.0,
            idle_scale: 100.0,
            supply: 31,
        };
        Game::start(&layout, Position::start(2).unwrap())
    }

    #[test]
    fn rows_run_across_the_parts() {
        let g = game();
        let games = Games::made(vec![
            (vec![g.clone(); 2], false),
            (vec![], true),
            (vec![g.clone(); 3], true),
        ]);
        assert_eq!(games.len(), 5);
        assert!(games.get(4).is_some());
        assert!(games.get(5).is_none());
        assert_eq!(games.range(1, 4).count(), 3);
        assert_eq!(games.range(3, 9).count(), 2);
        assert!(Games::new(vec![]).is_empty());
    }

    #[test]
    fn pieces_cut_across_the_parts() {
        let g = game();
        let mut games = Games::made(vec![
            (vec![g.clone(); 2], false),
            (vec![], true),
            (vec![g.clone(); 3], true),
        ]);
        let lens: Vec<Vec<usize>> = games
            .pieces_mut(&[1, 4, 5])
            .iter()
            .map(|piece| piece.iter().map(|s| s.len()).collect())
            .collect();
        assert_eq!(lens, vec![vec![1], vec![1, 2], vec![1]]);
        let whole = games.pieces_mut(&[5]);
        assert_eq!(whole[0].iter().map(|s| s.len()).sum::<usize>(), 5);
    }
}
