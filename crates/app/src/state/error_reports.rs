//! The reports the page makes without the engine: input too large to analyse here, or a worker
//! that stopped. They are errors on the inputs, like the engine's, in the page's language (the app's
//! own words, from `i18n`); [`super::Origin`] keeps what they were made from, to write them again
//! in another language.

use faultline_report::{InputError, Report};

use super::input::{Input, MAX_INPUT_BYTES};
use crate::i18n::{texts, Lang};

/// Why an analysis stopped before its report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The page could not start its worker.
    NotStarted,
    /// The worker stopped without saying why.
    Stopped,
    /// The worker's error, as the browser reports it.
    Error(String),
}

/// The report for input too large to analyse in the page: one error per input, nothing analysed,
/// the text kept as it is.
pub(super) fn too_large(inputs: &[Input], total: u64, lang: Lang) -> Report {
    let mb = |bytes: u64| bytes.div_ceil(1024 * 1024);
    let errors = inputs
        .iter()
        .filter(|i| i.text.len() > 0)
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            message: (texts(lang).too_large)(mb(total), mb(i.text.len()), MAX_INPUT_BYTES / (1024 * 1024))
                .into(),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}

/// The report when the worker stopped without a result: one error per input, pointing at the CLI.
pub(super) fn failed(inputs: &[Input], failure: &Failure, lang: Lang) -> Report {
    let t = texts(lang);
    let why = match failure {
        Failure::NotStarted => t.worker_not_started,
        Failure::Stopped => t.worker_stopped,
        Failure::Error(message) => message,
    };
    let errors = inputs
        .iter()
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            message: (t.analysis_stopped)(why).into(),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}
