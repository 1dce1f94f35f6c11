//! A Pod row's RESTARTS cell of a `kubectl get pods` table, read once here: as printed (`25`,
//! `19 (75s ago)`), and as kubectl ≥ 1.27 dates it, the count and the seconds since the last restart.
//! A count alone (older kubectl, or a container never restarted) has no age and proves nothing
//! current.

use faultline_ingest::Object;

/// RESTARTS as printed (`25`, `19 (75s ago)`), when the table has the column.
pub fn restarts(pod: &Object) -> Option<&str> {
    pod.locate("kubectl.restarts")?.1.as_str()
}

/// RESTARTS as kubectl ≥ 1.27 prints it, `5 (2m ago)`: the count and the seconds since the last
/// restart; a count alone (`5`, older kubectl, or a container never restarted) has no age.
pub fn last_restart(pod: &Object) -> Option<(u32, Option<i64>)> {
    let printed = restarts(pod)?.trim();
    let (count, rest) = match printed.split_once(' ') {
        Some((count, rest)) => (count, Some(rest)),
        None => (printed, None),
    };
    let age = rest
        .and_then(|r| r.trim().strip_prefix('(')?.strip_suffix(" ago)"))
        .and_then(faultline_ingest::events_table::parse_age);
    Some((count.parse().ok()?, age))
}

/// The count and the seconds since the last restart of a row that restarted `min_restarts` times
/// or more, the last less than `within` seconds ago. A count without its age, or a last restart
/// longer ago, is `None`.
pub fn restarted_recently(pod: &Object, min_restarts: u32, within: i64) -> Option<(u32, i64)> {
    let (count, ago) = last_restart(pod)?;
    let ago = ago?;
    (count >= min_restarts && ago < within).then_some((count, ago))
}

#[cfg(test)]
mod tests {
    use crate::Model;
    use faultline_ingest::{ingest, Source};

    fn row(restarts: &str) -> Option<(u32, Option<i64>)> {
        let text =
            format!("NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   {restarts}   43d\n");
        let sources = [Source::new("pods.txt", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let pod = model.objects_of_kind("Pod").next()?;
        super::last_restart(pod)
    }

    /// kubectl ≥ 1.27 dates the last restart; older kubectl prints the count alone.
    #[test]
    fn restarts_are_read_with_their_age_when_kubectl_prints_it() {
        assert_eq!(row("5 (2m ago)"), Some((5, Some(120))));
        assert_eq!(row("14 (2m3s ago)"), Some((14, Some(123))));
        assert_eq!(row("10 (43d ago)"), Some((10, Some(43 * 86_400))));
        assert_eq!(row("30"), Some((30, None)));
    }
}
