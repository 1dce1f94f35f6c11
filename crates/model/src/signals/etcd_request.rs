//! etcd refusing or failing the API server's requests, as the API server passes its errors on
//! (etcd's `rpctypes` errors: `etcdserver: request timed out`, `etcdserver: leader changed`,
//! `etcdserver: no leader`, `etcdserver: too many requests`, `mvcc: database space exceeded`), as
//! the etcd v2 client logs them (`etcd cluster is unavailable or misconfigured`), as `etcdctl
//! cluster-health` prints them (`member … is unhealthy: got unhealthy result`, `cluster is
//! unavailable`, `failed to check the health of member`), and `etcdctl alarm list`'s
//! `memberID:… alarm:NOSPACE`; with `etcdctl endpoint status -w table`'s DB SIZE column.

use faultline_report::Evidence;

use crate::client_output::{lines_containing, Scope};
use crate::Model;

/// Lines cited at most.
const MOST: usize = 8;

/// What etcd's errors say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EtcdRequestFailure {
    /// Its database is full (`database space exceeded`, the NOSPACE alarm): `members` with the alarm
    /// raised in `etcdctl alarm list`, and the database size a table shows.
    OutOfSpace {
        members: Option<usize>,
        size: Option<String>,
    },
    /// It times out, has no leader or changes it, or is unhealthy.
    Unavailable,
}

/// What etcd's errors in the input say, with their lines (events' messages included, at most
/// eight): a full database before an unavailable etcd.
pub fn etcd_request_failure(model: &Model<'_>) -> Option<(EtcdRequestFailure, Vec<Evidence>)> {
    let space = lines_containing(
        model,
        &["mvcc: database space exceeded", "alarm:NOSPACE"],
        Scope::WithEvents,
    );
    let (failure, mut evidence) = if !space.is_empty() {
        let members = space
            .iter()
            .filter(|e| e.value.contains("alarm:NOSPACE") && e.value.starts_with("memberID"))
            .count();
        let size = space
            .iter()
            .chain(lines_containing(model, &[" GB |", " MB |"], Scope::ClientOutput).iter())
            .find_map(|e| db_size(&e.value));
        let members = (members > 0).then_some(members);
        (EtcdRequestFailure::OutOfSpace { members, size }, space)
    } else {
        let unavailable = lines_containing(
            model,
            &[
                "etcdserver: request timed out",
                "etcdserver: leader changed",
                "etcdserver: no leader",
                "etcdserver: too many requests",
                // The API server's and controllers' logs (etcd v2 client), and `etcdctl
                // cluster-health`.
                "etcd cluster is unavailable or misconfigured",
                "has no leader",
                "is unhealthy: got unhealthy result",
                "cluster is unavailable",
                "failed to check the health of member",
            ],
            Scope::WithEvents,
        );
        if unavailable.is_empty() {
            return None;
        }
        (EtcdRequestFailure::Unavailable, unavailable)
    };
    evidence.truncate(MOST);
    Some((failure, evidence))
}

/// `| https://10.50.0.11:2379 | 9f2c… |  3.5.15 |  2.1 GB |` -> "2.1 GB".
fn db_size(line: &str) -> Option<String> {
    line.split('|')
        .map(str::trim)
        .find(|cell| {
            let mut parts = cell.split_whitespace();
            matches!(
                (parts.next().map(|n| n.parse::<f64>().is_ok()), parts.next()),
                (Some(true), Some("GB" | "MB" | "kB"))
            )
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::db_size;

    #[test]
    fn reads_the_database_size_cell() {
        assert_eq!(
            db_size("| https://10.50.0.11:2379 | 9f2c3a1b4d5e6f70 |  3.5.15 |  2.1 GB |      true |"),
            Some("2.1 GB".to_string())
        );
        assert_eq!(db_size("| ENDPOINT | ID | VERSION | DB SIZE |"), None);
    }
}
