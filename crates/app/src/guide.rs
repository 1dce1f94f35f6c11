//! "What should I paste?": for each common symptom, the kubectl commands whose output lets Faultline
//! judge it — the object, its owners, its events sorted by time and, where it helps, the previous
//! container's logs. The entries and their words are the render crate's (`faultline_render::guide`),
//! shared with the MCP server's `what_to_paste`; these tests hold them to what the app needs.

pub use faultline_render::guide::{matching, ENTRIES};

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_report::{Report, Verdict};

    #[test]
    fn every_entry_collects_the_events_sorted_by_time() {
        for entry in ENTRIES {
            assert!(
                entry
                    .commands
                    .iter()
                    .any(|c| c.contains("get events") && c.contains("--sort-by=.lastTimestamp")),
                "{}",
                entry.id
            );
            for command in entry.commands {
                assert!(command.starts_with("kubectl "), "{command}");
                // The field selectors events support (involvedObject.*, reason, type, source) and Pods'
                // spec.nodeName.
                for selector in command.split("--field-selector ").skip(1) {
                    let selector = selector.split(' ').next().unwrap_or_default();
                    for term in selector.split(',') {
                        let field = term.split('=').next().unwrap_or_default();
                        assert!(
                            field.starts_with("involvedObject.")
                                || ["reason", "type", "spec.nodeName"].contains(&field),
                            "{command}"
                        );
                    }
                }
            }
        }
        assert!(
            ENTRIES
                .iter()
                .filter(|e| e.commands.iter().any(|c| c.contains("--previous")))
                .count()
                >= 3
        );
    }

    #[test]
    fn an_inconclusive_report_is_matched_by_what_it_read() {
        let mut report = Report {
            verdict: Verdict::Inconclusive,
            ..Report::default()
        };
        assert_eq!(matching(&report), Some("pod-not-starting"));
        report.counts.insert("Service".into(), 1);
        assert_eq!(matching(&report), Some("service-not-answering"));
        report.counts.insert("PersistentVolumeClaim".into(), 2);
        assert_eq!(matching(&report), Some("storage"));
        report.verdict = Verdict::Fault;
        assert_eq!(matching(&report), None);
    }
}
