//! The kubelet's words about a node short of a resource: its eviction manager's `Evicted` message
//! (pkg/kubelet/eviction/helpers.go: `The node was low on resource: %v. ` then, per container,
//! `Container %s was using %s, request is %s, has larger consumption of %v. `; before 1.2x
//! `…, which exceeds its request of %s.`), its node status events (pkg/kubelet/nodestatus/setters.go:
//! `NodeHasDiskPressure` / `NodeHasNoDiskPressure`, `NodeHasInsufficientMemory` /
//! `NodeHasSufficientMemory`, `NodeHasInsufficientPID` / `NodeHasSufficientPID`), its image garbage
//! collector's `FreeDiskSpaceFailed` and `ImageGCFailed`, and `EvictionThresholdMet`.
//!
//! A pressure is named by its Node condition type: `DiskPressure`, `MemoryPressure`, `PIDPressure`.

use crate::{EventRecord, Model};

/// The Node condition types of the kubelet's eviction manager.
pub const PRESSURE_CONDITIONS: [&str; 3] = ["DiskPressure", "MemoryPressure", "PIDPressure"];

/// The taint the node lifecycle controller puts on a Node for a pressure condition.
pub fn pressure_taint(pressure: &str) -> &'static str {
    match pressure {
        "DiskPressure" => "node.kubernetes.io/disk-pressure",
        "MemoryPressure" => "node.kubernetes.io/memory-pressure",
        _ => "node.kubernetes.io/pid-pressure",
    }
}

/// The event by which the kubelet says a pressure condition passed.
pub fn relief_reason(pressure: &str) -> &'static str {
    match pressure {
        "DiskPressure" => "NodeHasNoDiskPressure",
        "MemoryPressure" => "NodeHasSufficientMemory",
        _ => "NodeHasSufficientPID",
    }
}

/// The pressure condition an eviction signal's resource is under: `ephemeral-storage`, `nodefs`
/// and `imagefs` are disk, `memory` memory, `pids` process IDs.
pub fn pressure_of_resource(resource: &str) -> Option<&'static str> {
    if resource.starts_with("ephemeral-storage")
        || resource.starts_with("nodefs")
        || resource.starts_with("imagefs")
    {
        Some("DiskPressure")
    } else if resource.starts_with("memory") {
        Some("MemoryPressure")
    } else if resource.starts_with("pids") {
        Some("PIDPressure")
    } else {
        None
    }
}

/// The largest consumer an eviction message names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consumer<'m> {
    /// `Container app was using 1Gi, request is 100Mi`.
    Usage {
        container: &'m str,
        usage: &'m str,
        request: &'m str,
    },
    /// The words after `Container `, when they are not in that shape.
    AsSaid(&'m str),
}

/// What an eviction message (an `Evicted` event's, or an evicted Pod's `status.message`) says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eviction<'m> {
    /// The resource after `low on resource: `, up to the first `.`, `,` or space.
    pub resource: Option<&'m str>,
    /// The first container it names.
    pub consumer: Option<Consumer<'m>>,
}

impl<'m> Eviction<'m> {
    pub fn read(message: &'m str) -> Self {
        let resource = message
            .split("low on resource: ")
            .nth(1)
            .and_then(|r| r.split(['.', ',', ' ']).next());
        let consumer = message
            .split("Container ")
            .nth(1)
            .and_then(|r| r.split(", has larger").next())
            .map(|words| {
                let words = words.trim_end_matches(['.', ' ']);
                let plain = |s: &str| !s.is_empty() && !s.contains([' ', ',']);
                words
                    .split_once(" was using ")
                    .and_then(|(container, rest)| {
                        let (usage, request) = rest.split_once(", request is ")?;
                        (plain(container) && plain(usage) && plain(request)).then_some(Consumer::Usage {
                            container,
                            usage,
                            request,
                        })
                    })
                    .unwrap_or(Consumer::AsSaid(words))
            });
        Eviction { resource, consumer }
    }

    /// The pressure condition of the resource the node was low on.
    pub fn pressure(&self) -> Option<&'static str> {
        self.resource.and_then(pressure_of_resource)
    }
}

impl EventRecord {
    /// The pressure condition a Node event of the kubelet says the node is under: its node status
    /// events and its image garbage collector's failures (not `EvictionThresholdMet`).
    pub fn pressure_reported(&self) -> Option<&'static str> {
        match &*self.reason {
            "NodeHasDiskPressure" | "FreeDiskSpaceFailed" | "ImageGCFailed" => Some("DiskPressure"),
            "NodeHasInsufficientMemory" => Some("MemoryPressure"),
            "NodeHasInsufficientPID" => Some("PIDPressure"),
            _ => None,
        }
    }

    /// [`EventRecord::pressure_reported`], and `EvictionThresholdMet` for disk
    /// (`ephemeral-storage`, `nodefs`) as disk pressure.
    pub fn pressure_signalled(&self) -> Option<&'static str> {
        self.pressure_reported().or_else(|| {
            (self.reason == "EvictionThresholdMet"
                && (self.message.contains("ephemeral-storage") || self.message.contains("nodefs")))
            .then_some("DiskPressure")
        })
    }

    /// The pressure of an `Evicted` event's message, if it is one.
    pub fn eviction_pressure(&self) -> Option<&'static str> {
        (self.reason == "Evicted")
            .then(|| Eviction::read(&self.message).pressure())
            .flatten()
    }
}

impl Model<'_> {
    /// Each event of a Node that says it is under a pressure ([`EventRecord::pressure_signalled`]),
    /// in input order, with that pressure.
    pub fn node_pressure_events(&self) -> Vec<(&EventRecord, &'static str)> {
        self.events
            .iter()
            .filter(|e| e.subject.kind == "Node")
            .filter_map(|e| Some((e, e.pressure_signalled()?)))
            .collect()
    }

    /// The kubelet's `Evicted` events of Pods, in input order (every one: a Pod evicted twice was
    /// evicted twice).
    pub fn pod_eviction_events(&self) -> impl Iterator<Item = &EventRecord> {
        self.events
            .iter()
            .filter(|e| e.reason == "Evicted" && e.subject.kind == "Pod")
    }

    /// Whether any event is an eviction (`Evicted`), whatever its subject.
    pub fn has_eviction_events(&self) -> bool {
        self.events.iter().any(|e| e.reason == "Evicted")
    }

    /// The `Evicted` events whose message says the node was low on a resource under `pressure`,
    /// in input order (they name the Pod, not its node).
    pub fn evictions_under(&self, pressure: &str) -> Vec<&EventRecord> {
        self.events
            .iter()
            .filter(|e| e.eviction_pressure() == Some(pressure))
            .collect()
    }

    /// Whether the kubelet's last word on `pressure` of the Node named `node` (its events, matched by
    /// name: a table row gives a Node event a namespace) is that it passed
    /// ([`relief_reason`]) after it last reported it ([`EventRecord::pressure_reported`]).
    pub fn pressure_relieved(&self, node: &str, pressure: &str) -> bool {
        let relief = relief_reason(pressure);
        let (mut last_bad, mut last_good) = (None, None);
        for e in self
            .events
            .iter()
            .filter(|e| e.subject.kind == "Node" && e.subject.name == node)
        {
            let when = e.last.map(|t| t.as_second()).or(e.last_age.map(|a| -a));
            if e.reason == relief {
                last_good = last_good.max(when);
            } else if e.pressure_reported() == Some(pressure) {
                last_bad = last_bad.max(when);
            }
        }
        matches!((last_bad, last_good), (Some(bad), Some(good)) if good > bad)
    }
}

#[cfg(test)]
mod tests {
    use super::{Consumer, Eviction};

    #[test]
    fn eviction_messages() {
        let e = Eviction::read("The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container app was using 1Gi, request is 100Mi, has larger consumption of memory. ");
        assert_eq!(e.resource, Some("memory"));
        assert_eq!(e.pressure(), Some("MemoryPressure"));
        assert_eq!(
            e.consumer,
            Some(Consumer::Usage {
                container: "app",
                usage: "1Gi",
                request: "100Mi"
            })
        );
        let e = Eviction::read("The node was low on resource: ephemeral-storage. Container prometheus was using 20Ki, which exceeds its request of 0. ");
        assert_eq!(e.pressure(), Some("DiskPressure"));
        assert_eq!(
            e.consumer,
            Some(Consumer::AsSaid(
                "prometheus was using 20Ki, which exceeds its request of 0"
            ))
        );
        let e = Eviction::read("Pod was preempted");
        assert_eq!((e.resource, e.pressure(), e.consumer), (None, None, None));
        assert_eq!(
            Eviction::read("The node was low on resource: pids.").pressure(),
            Some("PIDPressure")
        );
    }
}
