//! The worker's replies turned into [`Action`]s: the report's parts are put together here, and only
//! the whole report becomes an action, then the whole list of secrets; the same for the texts of a
//! report in another language. No DOM types: the browser glue (`hooks/use_engine_worker.rs`)
//! and the native tests share it.

use std::rc::Rc;

use faultline_render::protocol::{Reply, Texts};
use faultline_report::Report;

use crate::state::{Action, Analysis, Text};

/// The report of the job being received, part by part.
#[derive(Default)]
pub struct Assembly {
    report: Report,
    secrets: Vec<faultline_render::protocol::Secret>,
    unreadable: Vec<(String, faultline_render::protocol::Unreadable)>,
    redacted_input: bool,
    /// The texts of a report in another language, part by part.
    texts: Texts,
}

impl Assembly {
    /// The texts of a report in another language are asked for: their parts start coming.
    pub fn expect_texts(&mut self) {
        self.texts = Texts::default();
    }

    /// The action for one reply to job `id` (`texts`: the byte arrays that came with it, made into
    /// texts), or `None` while the report is still coming in.
    pub fn take(&mut self, id: u64, reply: Reply, texts: Vec<Text>) -> Option<Action> {
        match reply {
            Reply::Progress(progress) => return Some(Action::Progress { id, progress }),
            Reply::Redacted { .. } => return Some(Action::Redacted { id, texts }),
            Reply::Head(head) => {
                *self = Assembly {
                    report: Report {
                        inputs: head.inputs,
                        counts: head.counts,
                        errors: head.errors,
                        findings: Vec::with_capacity(head.findings),
                        timeline: Vec::with_capacity(head.timeline),
                        objects: Vec::with_capacity(head.objects),
                        relations: Vec::with_capacity(head.relations),
                        verdict: head.verdict,
                        unread: head.unread,
                        workloads: Vec::with_capacity(head.workloads),
                        capture: head.capture.map(|c| *c),
                        ruled_out: Vec::with_capacity(head.ruled_out),
                        decide: head.decide.map(|d| *d),
                        paste_next: head.paste_next,
                    },
                    secrets: Vec::new(),
                    unreadable: head.unreadable,
                    redacted_input: head.redacted_input,
                    // Texts asked for meanwhile are another reply's.
                    texts: std::mem::take(&mut self.texts),
                };
            }
            Reply::Findings(findings) => self.report.findings.extend(findings),
            Reply::RuledOut(ruled_out) => self.report.ruled_out.extend(ruled_out),
            Reply::Workloads(workloads) => self.report.workloads.extend(workloads),
            Reply::Secrets(secrets) => self.secrets.extend(secrets),
            Reply::Timeline(entries) => self.report.timeline.extend(entries),
            Reply::Objects(objects) => self.report.objects.extend(objects),
            Reply::Relations(relations) => self.report.relations.extend(relations),
            Reply::Reported(timings) => {
                let done = std::mem::take(self);
                let analysis = Rc::new(Analysis {
                    report: Rc::new(done.report),
                    unreadable: done.unreadable,
                    redacted_input: done.redacted_input,
                    timings,
                });
                return Some(Action::Reported { id, analysis });
            }
            Reply::Done(timings) => {
                let secrets = Rc::new(std::mem::take(&mut self.secrets));
                return Some(Action::Scanned {
                    id,
                    secrets,
                    timings: Rc::new(timings),
                });
            }
            Reply::Excerpt(excerpt) => return Some(Action::Excerpt(Rc::new(excerpt))),
            // The worker's own business (the page's bridge asks for the next step, installs the
            // docs), no action of a job.
            Reply::Warmed(_) | Reply::Docs(_) => {}
            Reply::Texts(json) => {
                // A part that cannot be read leaves the texts it carried as they were.
                if let Ok(part) = serde_json::from_str(&json) {
                    self.texts.merge(part);
                }
            }
            Reply::Localized => {
                let texts = Rc::new(std::mem::take(&mut self.texts));
                return Some(Action::Localized { id, texts });
            }
        }
        None
    }
}
