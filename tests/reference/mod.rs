//! A slow, obviously correct Go board for cross-checking the fast one: a plain grid, chains and
//! liberties found by flood fill every time they are needed, and the repetition rules checked
//! against a list of whole positions. Nothing here is incremental or clever on purpose.

#![allow(dead_code)]

use std::collections::HashSet;
use tengen::game::rules::KoRule;
use tengen::Color;

pub type Grid = Vec<Option<Color>>;

#[derive(Clone, Debug)]
pub struct RefGame {
    pub size: usize,
    pub grid: Grid,
    pub ko: KoRule,
    pub suicide_allowed: bool,
    /// Every position after a stone move, or at the start, with who made it.
    pub history: Vec<(Grid, Color)>,
    /// The same positions as sets, so repetition tests stay fast on large boards.
    pub seen_positions: HashSet<Grid>,
    pub seen_with_mover: HashSet<(Grid, Color)>,
    /// The last action: who acted and whether it was a stone move, for simple ko.
    pub last: Option<(Color, bool)>,
    pub prisoners: [u32; 2],
}

impl RefGame {
    pub fn new(size: usize, ko: KoRule, suicide_allowed: bool, first: Color) -> RefGame {
        let grid = vec![None; size * size];
        RefGame {
            size,
            grid: grid.clone(),
            ko,
            suicide_allowed,
            history: vec![(grid.clone(), first.opponent())],
            seen_positions: HashSet::from([grid.clone()]),
            seen_with_mover: HashSet::from([(grid, first.opponent())]),
            last: None,
            prisoners: [0, 0],
        }
    }

    pub fn neighbors(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.size, i / self.size);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < self.size {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - self.size);
        }
        if y + 1 < self.size {
            out.push(i + self.size);
        }
        out
    }

    /// The chain through the stone at `i` and its liberties, by flood fill.
    pub fn chain(grid: &Grid, game: &RefGame, i: usize) -> (Vec<usize>, Vec<usize>) {
        let color = grid[i];
        let mut in_chain = vec![false; grid.len()];
        let mut is_liberty = vec![false; grid.len()];
        let mut stones = vec![i];
        in_chain[i] = true;
        let mut liberties = Vec::new();
        let mut k = 0;
        while k < stones.len() {
            for n in game.neighbors(stones[k]) {
                if grid[n] == color && !in_chain[n] {
                    in_chain[n] = true;
                    stones.push(n);
                } else if grid[n].is_none() && !is_liberty[n] {
                    is_liberty[n] = true;
                    liberties.push(n);
                }
            }
            k += 1;
        }
        (stones, liberties)
    }

    /// The grid and prisoners after `color` plays `i`, or `None` if the move is illegal.
    pub fn after(&self, i: usize, color: Color) -> Option<(Grid, [u32; 2])> {
        if self.grid[i].is_some() {
            return None;
        }
        let mut grid = self.grid.clone();
        let mut prisoners = self.prisoners;
        grid[i] = Some(color);
        for n in self.neighbors(i) {
            if grid[n] == Some(color.opponent()) {
                let (stones, liberties) = RefGame::chain(&grid, self, n);
                if liberties.is_empty() {
                    for s in stones {
                        grid[s] = None;
                        prisoners[color.index()] += 1;
                    }
                }
            }
        }
        let (own, liberties) = RefGame::chain(&grid, self, i);
        if liberties.is_empty() {
            if !self.suicide_allowed {
                return None;
            }
            for s in own {
                grid[s] = None;
                prisoners[color.opponent().index()] += 1;
            }
        }
        let repeated = match self.ko {
            KoRule::Simple => match self.last {
                // A retake recreates the position before the opponent's last move; a
                // single-stone suicide, which changes nothing, cannot be "retaken".
                Some((who, true)) if who == color.opponent() => {
                    let n = self.history.len();
                    n >= 2 && self.history[n - 2].0 == grid && self.history[n - 1].0 != grid
                }
                _ => false,
            },
            KoRule::Positional => self.seen_positions.contains(&grid),
            KoRule::Situational => self.seen_with_mover.contains(&(grid.clone(), color)),
        };
        (!repeated).then_some((grid, prisoners))
    }

    pub fn is_legal(&self, i: usize, color: Color) -> bool {
        self.after(i, color).is_some()
    }

    pub fn play(&mut self, i: Option<usize>, color: Color) -> bool {
        match i {
            None => {
                self.last = Some((color, false));
                true
            }
            Some(i) => match self.after(i, color) {
                Some((grid, prisoners)) => {
                    self.grid = grid.clone();
                    self.prisoners = prisoners;
                    self.seen_positions.insert(grid.clone());
                    self.seen_with_mover.insert((grid.clone(), color));
                    self.history.push((grid, color));
                    self.last = Some((color, true));
                    true
                }
                None => false,
            },
        }
    }
}
