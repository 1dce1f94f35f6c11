//! Bands (one per top owner or Service): their items and links, the collapsing of large groups, and
//! the layout of the bands, failing first.

use std::collections::{BTreeSet, HashMap};

use faultline_report::{Report, Severity};

use super::{
    failing, GroupKey, Item, Layout, Link, LinkKind, Lit, Options, Placed, COLLAPSE_OVER, EXPANDED_MAX,
    FAILING_SHOWN,
};

/// Failing first, then not known, then fine; by name within each.
pub(super) fn order_members(report: &Report, members: &mut [usize]) {
    members.sort_by_key(|&i| {
        let o = &report.objects[i];
        let rank = match failing(o) {
            Some(true) => 0,
            None => 1,
            Some(false) => 2,
        };
        (rank, o.object.name.clone())
    });
}

/// A band: items per column, rows relative to the band, links between its items.
#[derive(Default)]
pub(super) struct Band {
    pub(super) placed: Vec<(Item, usize, usize)>,
    pub(super) links: Vec<(usize, usize, LinkKind, bool)>,
    pub(super) rows: usize,
    /// For ordering: the worst severity lit in it, and how many of its objects fail.
    pub(super) severity: Option<Severity>,
    pub(super) bad: usize,
    pub(super) sort_name: (String, String),
}

impl Band {
    pub(super) fn put(&mut self, item: Item, column: usize, row: usize) -> usize {
        self.rows = self.rows.max(row + 1);
        self.placed.push((item, column, row));
        self.placed.len() - 1
    }

    pub(super) fn link(&mut self, from: usize, to: usize, kind: LinkKind, inferred: bool) {
        self.links.push((from, to, kind, inferred));
    }

    pub(super) fn note(&mut self, report: &Report, lit: &HashMap<usize, Lit>, object: usize) {
        if let Some(l) = lit.get(&object) {
            self.severity = self.severity.max(Some(l.severity));
        }
        if report.objects.get(object).and_then(failing) == Some(true) {
            self.bad += 1;
        }
    }
}

/// Places a group's members from `row` on: all when few or expanded (up to the cap), else the
/// failing few and one box for the rest. Returns the (placed index, member) pairs and the rows used.
pub(super) fn place_members(
    band: &mut Band,
    key: GroupKey,
    mut members: Vec<usize>,
    (column, row): (usize, usize),
    expanded: &BTreeSet<GroupKey>,
    is_bad: &dyn Fn(usize) -> bool,
    item: &dyn Fn(usize) -> Item,
) -> (Vec<(usize, usize)>, usize) {
    let total = members.len();
    let bad = members.iter().filter(|&&m| is_bad(m)).count();
    let is_expanded = expanded.contains(&key);
    let shown: Vec<usize> = if total <= COLLAPSE_OVER {
        members
    } else if is_expanded {
        members.truncate(EXPANDED_MAX);
        members
    } else {
        members
            .into_iter()
            .filter(|&m| is_bad(m))
            .take(FAILING_SHOWN)
            .collect()
    };
    let mut out = Vec::new();
    let mut r = row;
    for &m in &shown {
        out.push((band.put(item(m), column, r), m));
        r += 1;
    }
    if shown.len() < total {
        let hidden_bad = bad - shown.iter().filter(|&&m| is_bad(m)).count();
        band.put(
            Item::Group {
                key,
                hidden: total - shown.len(),
                hidden_bad,
                total,
                bad,
                expanded: is_expanded,
            },
            column,
            r,
        );
        r += 1;
    }
    (out, (r - row).max(1))
}

pub(super) fn in_namespace(namespace: Option<&str>, options: &Options) -> bool {
    options
        .namespace
        .as_deref()
        .is_none_or(|ns| namespace == Some(ns))
}

/// Orders bands failing first and lays out the first `shown` of them.
pub(super) fn layout(mut bands: Vec<Band>, shown: usize) -> Layout {
    bands.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.bad.cmp(&a.bad))
            .then_with(|| a.sort_name.cmp(&b.sort_name))
    });
    let total_bands = bands.len();
    let mut out = Layout {
        total_bands,
        ..Layout::default()
    };
    for (number, band) in bands.into_iter().take(shown).enumerate() {
        let base = out.placed.len();
        for (item, column, row) in band.placed {
            out.placed.push(Placed {
                item,
                column,
                row: out.rows + row,
                band: number,
            });
        }
        for (from, to, kind, inferred) in band.links {
            out.links.push(Link {
                from: base + from,
                to: base + to,
                kind,
                inferred,
            });
        }
        out.rows += band.rows;
        out.bands = number + 1;
    }
    out
}
