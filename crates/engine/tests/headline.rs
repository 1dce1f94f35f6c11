//! Issue 40, item 8: the headline of an export names one boundary only when every independent
//! fault is at it; a capture whose faults are at several says how many and where.

// Test code: panicking on a broken case is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, render, Lang};

#[test]
fn faults_at_several_boundaries_are_not_headlined_as_one() {
    let case = common::corpus().join("real/troubleshoot/errimagepull-x509-podlist-and-events-json");
    let mut report = analyze(&common::case_sources(&case));
    let (faults, boundaries) = render::independent_faults(&report);
    assert!(faults >= 2 && boundaries.len() >= 2, "{faults} {boundaries:?}");
    let markdown = render::markdown(&report, Lang::En);
    let headline = markdown.lines().find(|l| l.starts_with("**Fault")).unwrap();
    assert!(
        headline.starts_with(&format!(
            "**Fault boundaries:** {faults} independent faults across "
        )),
        "{headline}"
    );
    for b in &boundaries {
        assert!(headline.contains(&format!("`{}`", b.id())), "{headline}");
    }
    report.localize(Lang::Zh);
    let markdown = render::markdown(&report, Lang::Zh);
    assert!(
        markdown.contains(&format!("{faults} 个相互独立的故障，分布在 ")),
        "{markdown}"
    );

    // One fault: its boundary, as before.
    let case = common::corpus().join("cases/09-crashloop-config-typo-exit1-describe");
    let report = analyze(&common::case_sources(&case));
    let markdown = render::markdown(&report, Lang::En);
    assert!(
        markdown.contains("**Fault boundary:** `application` (Application)"),
        "{markdown}"
    );
}
