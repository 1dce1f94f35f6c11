//! The reports the page makes without the engine: input too large to analyse here, or a worker
//! that stopped. They are errors on the inputs, like the engine's, and in English like the engine's
//! messages (report data is never translated: it is shown as written, `translate="no"`).

use faultline_engine::{InputError, Report};

use super::input::{Input, MAX_INPUT_BYTES};

/// The report for input too large to analyse in the page: one error per input, nothing analysed,
/// the text kept as it is.
pub(super) fn too_large(inputs: &[Input], total: u64) -> Report {
    let mb = |bytes: u64| bytes.div_ceil(1024 * 1024);
    let errors = inputs
        .iter()
        .filter(|i| i.text.len() > 0)
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            structured: None,
            message: format!(
                "the input is too large to analyse in this page ({} MB in all, this one {} MB; the page \
                 takes up to {} MB): nothing was analysed. Remove some files, or run the `faultline` \
                 command line, which reads dumps of any size",
                mb(total),
                mb(i.text.len()),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}

/// The report when the worker stopped without a result: one error per input, pointing at the CLI.
pub(super) fn failed(inputs: &[Input], message: &str) -> Report {
    let errors = inputs
        .iter()
        .map(|i| InputError {
            source: i.name.clone(),
            line: 1,
            column: 1,
            structured: None,
            message: format!(
                "the analysis stopped before it finished ({message}); the page may have run out of \
                 memory. The `faultline` command line reads dumps of any size"
            ),
        })
        .collect();
    Report {
        errors,
        ..Report::default()
    }
}
