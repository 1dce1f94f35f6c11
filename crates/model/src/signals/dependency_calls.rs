//! The failing calls an application's log records ([`crate::dependencies`]), grouped as a reader
//! counts them: one group per log and dependency, with the lines that name no host (`Connection is
//! not available, request timed out after 30000ms`) joined to their log's group of the same kind.

use faultline_ingest::logs::LogBlock;
use faultline_report::instant::Instant;
use faultline_report::{Evidence, ObjectRef};

use crate::dependencies::{self, DependencyLine, Target};
use crate::Model;

/// One dependency of one log: its failing lines, in input order.
pub struct DependencyCalls<'m> {
    /// Whose log it is, when the input says.
    pub who: Option<ObjectRef>,
    pub target: Target,
    /// The catalog's `dependency` of the group's first line.
    pub dependency: &'static str,
    pub lines: Vec<DependencyLine<'m>>,
}

impl<'m> Model<'m> {
    /// Every failing dependency of every log, in the order first named.
    pub fn dependency_calls(&self) -> Vec<DependencyCalls<'_>> {
        let mut groups: Vec<DependencyCalls<'_>> = Vec::new();
        // Lines that name a host first, then those that name none: they join their log's group of
        // the same kind of dependency.
        let (named, unnamed): (Vec<_>, Vec<_>) = self
            .dependency_lines()
            .into_iter()
            .partition(|l| !l.target.host.is_empty());
        for line in named.into_iter().chain(unnamed) {
            let who = line.block.and_then(LogBlock::object);
            let found = groups.iter_mut().find(|g| {
                g.who == who
                    && (g.target == line.target
                        || (line.target.host.is_empty() && same_kind(g.dependency, line.dependency())))
            });
            match found {
                Some(g) => g.lines.push(line),
                None => groups.push(DependencyCalls {
                    who,
                    target: line.target.clone(),
                    dependency: line.dependency(),
                    lines: vec![line],
                }),
            }
        }
        for group in &mut groups {
            group.lines.sort_by_key(|l| (l.known.source, l.known.line));
        }
        groups
    }
}

fn same_kind(a: &str, b: &str) -> bool {
    a == b || a == "any" || b == "any" || a == "database" || b == "database"
}

impl DependencyCalls<'_> {
    /// The failure that says most: a refusal or a name that does not resolve over the pool it
    /// exhausts, over a slow call ([`dependencies::rank`]).
    pub fn failure(&self) -> &'static str {
        self.lines
            .iter()
            .map(DependencyLine::failure)
            .min_by_key(|f| dependencies::rank(f))
            .unwrap_or_default()
    }

    /// How many records its lines are: a line pasted twice (the same record, timestamp and all) is
    /// one record. At least 1.
    pub fn records(&self, model: &Model<'_>) -> u32 {
        let mut texts: Vec<&str> = self
            .lines
            .iter()
            .filter_map(|l| model.input_line(l.known.source, l.known.line))
            .map(str::trim)
            .collect();
        texts.sort_unstable();
        texts.dedup();
        u32::try_from(texts.len().max(1)).unwrap_or(u32::MAX)
    }

    /// The earliest and the latest time its lines say they were written.
    pub fn span(&self) -> Option<(Instant, Instant)> {
        let times = self.lines.iter().filter_map(|l| l.time);
        Some((times.clone().min()?, times.max()?))
    }

    /// The most specific kind its lines name (`postgresql` over `database` over `any`), `""` for
    /// `any`.
    pub fn most_specific_dependency(&self) -> &'static str {
        let dependency = self
            .lines
            .iter()
            .map(DependencyLine::dependency)
            .find(|d| !matches!(*d, "any" | "database"))
            .unwrap_or(self.dependency);
        if dependency == "any" {
            ""
        } else {
            dependency
        }
    }

    /// Its first and last lines (one, when they are the same record), as the catalog knows them.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        let (Some(first), Some(last)) = (self.lines.first(), self.lines.last()) else {
            return Vec::new();
        };
        let mut evidence: Vec<Evidence> = Vec::new();
        for line in [first, last] {
            let e = Evidence {
                source: model.source_name(line.known.source),
                line: line.known.line,
                path: format!("known:{}", line.entry.id),
                value: line.known.text.clone(),
            };
            if !evidence.contains(&e) {
                evidence.push(e);
            }
        }
        evidence
    }

    /// Every line is a network or TLS error any program prints ([`dependencies::generic`]), quoted in
    /// prose, not a log.
    pub fn generic_prose(&self) -> bool {
        self.lines
            .iter()
            .all(|l| dependencies::generic(l.entry) && !l.in_log)
    }
}
