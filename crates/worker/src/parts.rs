//! A big List read by several workers at once: the pure steps of it, tested natively; `main.rs`
//! passes the messages. The engine's worker is the coordinator: it cuts the biggest input
//! ([`plan`]), posts every part but the first to a reader worker (another instance of the same
//! script, [`read_for_coordinator`]), reads the first part itself ([`read_own`]) meanwhile, and
//! merges the readers' items in input order ([`merge`]). Any step that fails — an input that is not
//! a plain List, a part that does not read cleanly, a reader that fails or answers nonsense — gives
//! `None`, and the coordinator reads the inputs whole: the report is the same, only later.

use faultline_engine::ingest::node::Node;
use faultline_engine::ingest::split::{self, Checked, ListFormat};
use faultline_engine::ingest::Ingested;
use faultline_engine::Source;

pub use split::Plan;

/// How the biggest input, when it has at least `from` bytes and is a List, is cut for `workers`
/// workers ([`split::plan`]); `None` (read whole) for one worker or when it cannot be cut in two at
/// least.
pub fn plan(sources: &[Source], workers: usize, from: usize) -> Option<Plan> {
    split::plan(sources, workers, from, first_share(workers))
}

/// The parts the readers read: all but the first (the coordinator's), each its text, its first
/// line and the List's format.
pub fn for_readers<'a>(
    plan: &'a Plan,
    sources: &'a [Source],
) -> impl Iterator<Item = (&'a str, u32, ListFormat)> + 'a {
    plan.parts(sources).skip(1)
}

/// The coordinator's share of the items, for `workers` workers: half a reader's, as it also checks
/// the whole input ([`split::plain`]: 55 ms natively on the 1k-Pod JSON dump, against 90 ms to
/// parse all its items) and decodes and merges the readers' items.
pub fn first_share(workers: usize) -> f64 {
    1.0 / (2 * workers.max(1)) as f64
}

/// What the coordinator read of its input while the readers read theirs: the input checked
/// plain, its skeleton checked, and the first part's items.
pub struct Own {
    checked: Checked,
    items: Vec<Node>,
}

/// The coordinator's share ([`Own`]); `None` when the input must be read whole.
pub fn read_own(sources: &[Source], plan: &Plan) -> Option<Own> {
    let checked = split::check(sources, plan)?;
    read_first(sources, plan, checked)
}

/// The first part's items, after [`split::check`]: the second step of [`read_own`].
pub fn read_first(sources: &[Source], plan: &Plan, checked: Checked) -> Option<Own> {
    let (text, first_line, format) = plan.parts(sources).next()?;
    let items = split::read_part(text, first_line, format)?;
    Some(Own { checked, items })
}

/// A reader's work: its part's items, in the form [`merge`] reads; `None` when the part does not
/// read cleanly.
pub fn read_for_coordinator(part: &str, first_line: u32, format: ListFormat) -> Option<Vec<u8>> {
    split::read_part(part, first_line, format).map(|items| split::encode_items(&items))
}

/// The reading of `sources`: the coordinator's part and then each reader's (`readers`, in the
/// order of the parts), merged; `None` when a reader had nothing or sent what is not items.
pub fn merge(
    sources: &[Source],
    plan: &Plan,
    own: Own,
    readers: &[Option<Vec<u8>>],
    progress: &mut dyn FnMut(u64, u64),
) -> Option<Ingested> {
    if readers.len() + 1 != plan.cut.parts.len() {
        return None;
    }
    let mut items = own.items;
    for reply in readers {
        items.extend(split::decode_items(reply.as_deref()?)?);
    }
    Some(split::ingest_merged(
        sources,
        own.checked.merged(plan, items),
        progress,
    ))
}
