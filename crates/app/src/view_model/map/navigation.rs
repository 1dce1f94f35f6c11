//! Moving between the map's boxes with the arrow keys.

use super::Placed;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// The item the arrow keys move to from `at`: up and down in its column, left and right to the
/// nearest row of the next column that has items.
pub fn neighbor(placed: &[Placed], at: usize, direction: Direction) -> Option<usize> {
    let here = placed.get(at)?;
    let distance = |p: &Placed| p.row.abs_diff(here.row);
    let candidates = placed.iter().enumerate().filter(|(i, _)| *i != at);
    match direction {
        Direction::Up => candidates
            .filter(|(_, p)| p.column == here.column && p.row < here.row)
            .max_by_key(|(_, p)| p.row)
            .map(|(i, _)| i),
        Direction::Down => candidates
            .filter(|(_, p)| p.column == here.column && p.row > here.row)
            .min_by_key(|(_, p)| p.row)
            .map(|(i, _)| i),
        Direction::Left | Direction::Right => {
            let columns: Vec<usize> = if direction == Direction::Left {
                (0..here.column).rev().collect()
            } else {
                (here.column + 1..4).collect()
            };
            columns.into_iter().find_map(|column| {
                placed
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.column == column)
                    .min_by_key(|(_, p)| (distance(p), p.row))
                    .map(|(i, _)| i)
            })
        }
    }
}
