use faultline_model::signals::etcd_request::{etcd_request_failure, EtcdRequestFailure};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// etcd refusing or failing the API server's requests, as the API server passes its errors on
    /// (`etcdserver: mvcc: database space exceeded`, `etcdserver: request timed out`, `etcdserver:
    /// leader changed`, `etcdserver: no leader`) and as `etcdctl` shows it when pasted (`alarm list`
    /// with `alarm:NOSPACE`, `endpoint status` with the database size).
    ///
    /// ## Why it matters
    /// With a NOSPACE alarm etcd accepts no writes: every create, update and scale fails while reads
    /// may still work, so the cluster looks half alive. Restarting Pods or the API server does not
    /// help; the database must be compacted, defragmented and the alarm disarmed.
    ///
    /// ## Evidence
    /// The `etcdserver:` errors in kubectl's output, then `etcdctl`'s alarms and endpoint status.
    ///
    /// ## Fault boundary
    /// `etcd`: the API server's storage.
    ///
    /// ## What this evidence cannot establish
    /// What filled the database (an object type growing without bound, events, a missing
    /// compaction) and whether every member is affected; for timeouts, whether the cause is disk
    /// latency, the network between members or load.
    ///
    /// ## Next evidence to collect
    /// `etcdctl endpoint status -w table` and `alarm list` for every member, the API server's
    /// `/readyz?verbose`, and etcd's own logs and disk latency.
    ///
    /// ## Example
    /// ```text
    /// Error from server: etcdserver: mvcc: database space exceeded
    /// memberID:9f2c41d07a8e6b35 alarm:NOSPACE
    /// ```
    pub const RULE = { id: "etcd-request-failed", boundary: Boundary::Etcd, components: [Etcd], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let Some((failure, evidence)) = etcd_request_failure(model) else {
        return;
    };
    let (summary, cannot) = match failure {
        EtcdRequestFailure::OutOfSpace { members, size } => {
            (Msg::OutOfSpace { members, size }, Msg::WhatFilled {})
        }
        EtcdRequestFailure::Unavailable => (Msg::Unavailable {}, Msg::WhyUnavailable {}),
    };
    let subject = ObjectRef {
        kind: "Cluster".into(),
        namespace: None,
        name: "etcd".into(),
        uid: None,
    };
    let cannot_establish: Vec<Message> = vec![cannot.into(), Msg::EveryMember {}.into()];
    let next_steps = vec![
        "kubectl get --raw='/readyz?verbose'".to_string(),
        "etcdctl endpoint status --cluster -w table".to_string(),
        "etcdctl alarm list".to_string(),
    ];
    findings.push(RULE.finding(
        Severity::Error,
        subject,
        summary,
        evidence,
        cannot_establish,
        next_steps,
    ));
}

faultline_report::messages! {
    /// The words of `etcd-request-failed`.
    pub enum Msg {
        /// The NOSPACE alarm: on how many members `etcdctl alarm list` shows it (None: not pasted),
        /// and the database's size as `etcdctl endpoint status` prints it.
        OutOfSpace { members: Option<usize>, size: Option<String> } = "etcd-request-failed.out-of-space" {
            en: {
                let members = members.0.map(|n| format!(" on {n} member(s)")).unwrap_or_default();
                let size = size.0.as_ref().map(|s| format!(" with a database of {s}")).unwrap_or_default();
                format!("etcd is out of space: its NOSPACE alarm is raised{members}{size}, so it refuses every write and the API server answers creates, updates and scaling with \"etcdserver: mvcc: database space exceeded\" while reads may still work.")
            },
            zh: {
                let members = members.0.map(|n| format!("在 {n} 个成员上")).unwrap_or_default();
                let size = size.0.as_ref().map(|s| format!("，数据库大小为 {s}")).unwrap_or_default();
                format!("etcd 的空间已用尽：它的 NOSPACE 告警已经{members}触发{size}，因此它拒绝一切写入，API 服务器对创建、更新和扩缩容都回答 \"etcdserver: mvcc: database space exceeded\"，而读操作可能仍然正常。")
            },
        },
        /// Timeouts, leader changes or an unhealthy cluster in the API server's errors.
        Unavailable {} = "etcd-request-failed.unavailable" {
            en: "etcd is failing the API server's requests (timeouts or leader changes): writes and consistent reads stall or fail.",
            zh: "etcd 处理 API 服务器的请求失败（超时或领导者切换）：写入和一致性读取会卡住或失败。",
        },
        WhatFilled {} = "etcd-request-failed.what-filled" {
            en: "What filled the database (an object type growing without bound, a missed compaction) and how large the space quota is set.",
            zh: "是什么填满了数据库（某类对象无限增长、漏掉了压缩），以及空间配额设置得有多大。",
        },
        WhyUnavailable {} = "etcd-request-failed.why-unavailable" {
            en: "Whether the cause is disk latency, the network between members, or load.",
            zh: "原因是磁盘延迟、成员之间的网络，还是负载。",
        },
        EveryMember {} = "etcd-request-failed.every-member" {
            en: "Whether every member is affected, unless each member's status was pasted.",
            zh: "是否每个成员都受到影响：除非粘贴了每个成员的状态，否则无法判断。",
        },
    }
}
