//! The rules' documentation, which the page's own wasm does not hold (it is a quarter of what the
//! page would load first): the engine's worker, which holds the rules, sends it when the page first
//! shows some ([`faultline_render::protocol::Request::Docs`]: the rules page, or a card's "About this
//! rule"), and it stays for the life of the page.

use std::cell::OnceCell;

pub use faultline_report::docs::RuleDoc;
use yew::Callback;

thread_local! {
    static DOCS: OnceCell<&'static [RuleDoc]> = const { OnceCell::new() };
}

/// Every rule's documentation, in the engine's order, once the worker has sent it.
pub fn all() -> Option<&'static [RuleDoc]> {
    DOCS.with(|docs| docs.get().copied())
}

pub fn find(id: &str) -> Option<&'static RuleDoc> {
    all()?.iter().find(|r| r.id == id)
}

/// Keeps the worker's [`faultline_render::protocol::Reply::Docs`]; `false` if it cannot be read or
/// the docs are already here. Its texts are leaked on purpose: sent once, they live as long as the
/// page, as `&'static str` like the rest of [`RuleDoc`]'s readers expect.
pub fn install(json: &str) -> bool {
    let Ok(decoded) = faultline_render::protocol::decode_docs(json) else {
        return false;
    };
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let docs: Vec<RuleDoc> = decoded
        .into_iter()
        .map(|(id, boundary, docs, docs_zh)| RuleDoc {
            id: leak(id),
            boundary,
            docs: leak(docs),
            docs_zh: leak(docs_zh),
        })
        .collect();
    DOCS.with(|cell| cell.set(Box::leak(docs.into_boxed_slice())).is_ok())
}

/// What a view that shows documentation gets from the app: whether it is here, and how to ask for
/// it (the worker sends it; asking twice asks once).
#[derive(Clone, Debug, PartialEq)]
pub struct DocsContext {
    pub loaded: bool,
    pub want: Callback<()>,
}

/// The engine's docs installed as the worker would send them, for tests of what shows them.
#[cfg(test)]
pub fn install_from_engine() {
    let rules: Vec<RuleDoc> = faultline_engine::rules::RULES.iter().map(|r| r.doc()).collect();
    install(&faultline_render::protocol::docs_json(&rules));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_the_worker_sends_are_the_engines_rules_in_order() {
        assert_eq!(all(), None);
        assert!(!install("not json"));
        assert_eq!(find("image-pull-failed"), None);
        install_from_engine();
        let engine: Vec<_> = faultline_engine::rules::RULES
            .iter()
            .map(|r| (r.id, r.boundary, r.docs, r.docs_zh))
            .collect();
        let docs: Vec<_> = all()
            .unwrap_or_default()
            .iter()
            .map(|r| (r.id, r.boundary, r.docs, r.docs_zh))
            .collect();
        assert_eq!(docs, engine);
        assert!(find("image-pull-failed").is_some());
        // Sent once, kept: a second reply changes nothing.
        assert!(!install(&faultline_render::protocol::docs_json(&[])));
        assert_eq!(all().map(<[_]>::len), Some(engine.len()));
    }
}
