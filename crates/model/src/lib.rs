//! The object graph the rules read: objects by identity, normalised events by subject, the timeline.

pub mod callers;
pub mod client_output;
pub mod dependencies;
pub mod dispatch;
pub mod dispatch_read_order;
pub mod events;
pub mod facts;
pub mod graph;
pub mod known;
pub mod line_index;
pub mod log_lines;
pub mod log_time;
pub use faultline_report::instant;
pub mod map;
pub mod owners;
pub mod proxy;
pub mod selectors;
pub mod signals;
pub mod state;
pub mod timeline;
pub mod timeline_words;
pub mod views;

use faultline_report::hash::Map;

pub use events::{EventOrigin, EventRecord};
use faultline_ingest::logs::LogBlock;
use faultline_ingest::messages::ClientMessage;
use faultline_ingest::{CommandOutput, Ingested, Object, Source};
use faultline_report::{Evidence, Name, ObjectRef, SourceLine, Text};

/// Per namespace, each Pod controller (kind, name) and the index of the first Pod stating it.
pub type PodControllers<'a> = Map<&'a str, Vec<(&'a str, &'a str, usize)>>;

pub struct Model<'a> {
    pub sources: &'a [Source],
    pub objects: &'a [Object],
    pub events: Vec<EventRecord>,
    /// Indices in `events` by the subject's kind and name: every rule asks for the events of every
    /// Pod, and scanning all events each time was quadratic on a large cluster.
    events_by_subject: Map<(Text, Text), Vec<usize>>,
    /// Indices in `objects` by kind and name, for [`Model::object`] and [`Model::events_for`].
    objects_by_name: Map<(&'a str, &'a str), Vec<usize>>,
    /// Indices in `objects` by namespace, and of those without one, for [`Model::objects_in`].
    objects_by_namespace: Map<&'a str, Vec<usize>>,
    cluster_scoped: Vec<usize>,
    /// Indices in `objects` by kind, for [`Model::objects_of_kind`].
    objects_by_kind: Map<&'a str, Vec<usize>>,
    pub graph: graph::Graph,
    /// Each namespace's Pod controllers as its Pods' owner references state them (kind and name),
    /// once each, with the first Pod that states it: built on first use by
    /// [`owners::top_workload`] for Pods that state none.
    pub pod_controllers: std::sync::OnceLock<PodControllers<'a>>,
    /// Every Service with a selector and what it reaches (Pods, EndpointSlices, endpoints).
    pub services: Vec<facts::ServiceChain>,
    /// kubectl's own messages (API errors, connection failures), by input.
    pub messages: &'a [(usize, ClientMessage)],
    /// Other commands' output kept as text, for rules that read it as the weakest evidence.
    pub outputs: &'a [CommandOutput],
    /// Container logs, each with the Pod or Job it names and its terminal error.
    pub logs: &'a [LogBlock],
    /// Sentences that quote a record the input also holds (input, line): read, not events.
    pub quoted: &'a [(usize, u32)],
    /// The commands whose output the inputs hold: a next step never repeats one
    /// ([`Model::already_pasted`]).
    pub pasted: &'a [faultline_ingest::pasted::PastedCommand],
    /// The lines of the inputs the catalog knows ([`Model::known_lines`]) and where their lines
    /// start ([`Model::line_index`]), found together on first use of either, or given.
    prescan: std::sync::OnceLock<Prescan>,
    /// Each input's name, shared by the lines the report cites of it ([`Model::source_name`]).
    names: Vec<Name>,
    /// Each input's year of undated log lines ([`Model::log_year`]), read for an input on first use.
    log_years: std::sync::OnceLock<Vec<std::sync::OnceLock<Option<i64>>>>,
    /// The Services each Pod names in its environment ([`Model::services_called`]), on first use.
    callers: std::sync::OnceLock<Map<ObjectRef, Vec<ObjectRef>>>,
    /// The Pods each Service some Pod calls selects ([`Model::pods_selected_by`]), on first use.
    called_selects: std::sync::OnceLock<Map<ObjectRef, Vec<ObjectRef>>>,
}

/// What the model reads of the inputs' text alone, whatever the readers make of it: where each
/// line starts ([`Model::line_index`]) and the lines the catalog knows ([`Model::known_lines`]).
/// A caller with threads finds it while the inputs are parsed ([`Prescan::of`], then
/// [`Model::build_prescanned`]): the command line does, on a second core. A model built without one
/// finds the same on first use.
#[derive(Debug)]
pub struct Prescan {
    line_index: Vec<line_index::LineIndex>,
    known_lines: Vec<known::KnownLine>,
}

impl Prescan {
    /// The prescan of `sources`: the same that a model of them finds on first use.
    pub fn of(sources: &[Source]) -> Self {
        let (line_index, known_lines) = known::scan(sources);
        Self {
            line_index,
            known_lines,
        }
    }
}

impl<'a> Model<'a> {
    /// Whether the inputs hold the output of `command` already (or of one whose output holds all of
    /// its: [`faultline_ingest::pasted::Key::covers`]).
    pub fn already_pasted(&self, command: &str) -> bool {
        let Some(step) = faultline_ingest::pasted::Key::parse(command) else {
            return false;
        };
        self.pasted.iter().any(|p| p.key.covers(&step))
    }

    /// The container log that line `line` of input `source` is in, if any.
    pub fn log_block_at(&self, source: usize, line: u32) -> Option<&'a LogBlock> {
        self.logs
            .iter()
            .find(|b| b.source == source && (b.first_line..=b.last_line).contains(&line))
    }

    /// Every line of an application's log that says a call to a dependency failed
    /// ([`dependencies::read`]), in input order.
    pub fn dependency_lines(&self) -> Vec<dependencies::DependencyLine<'_>> {
        dependencies::read(self, self.known_lines())
    }

    /// Line `line` (1-based) of input `source`, without its line break.
    pub fn input_line(&self, source: usize, line: u32) -> Option<&'a str> {
        let text = &self.sources.get(source)?.text;
        let at = self
            .line_index()
            .get(source)?
            .start(text, (line as usize).checked_sub(1)?)?;
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        Some(text[at..end].trim_end_matches('\r'))
    }

    /// Where the lines of each input start ([`line_index::LineIndex`]), for
    /// [`Model::input_line`]: found with the known lines, in the same pass over every line.
    pub fn line_index(&self) -> &[line_index::LineIndex] {
        &self.prescan().line_index
    }

    /// The prescan the model was given, or its own, found on first use.
    fn prescan(&self) -> &Prescan {
        self.prescan.get_or_init(|| Prescan::of(self.sources))
    }

    /// The year input `source`'s undated log lines were written in ([`log_time::year_hint`]): read
    /// once per input, on first use, for every reader of log times.
    pub fn log_year(&self, source: usize) -> Option<i64> {
        let years = self
            .log_years
            .get_or_init(|| self.sources.iter().map(|_| std::sync::OnceLock::new()).collect());
        let text = &self.sources.get(source)?.text;
        *years.get(source)?.get_or_init(|| log_time::year_hint(text))
    }

    /// Every line of the inputs that the catalog knows (catalog/*.toml), in input order: the typed
    /// signal of a line whatever layout it sits in. Found on first use, once.
    pub fn known_lines(&self) -> &[known::KnownLine] {
        &self.prescan().known_lines
    }

    /// The Services the Pod `pod` calls: named in its containers' environment, or the host its
    /// log's last error could not reach ([`callers::build`]). Read for every Pod once, on first use.
    pub fn services_called(&self, pod: &ObjectRef) -> &[ObjectRef] {
        self.callers
            .get_or_init(|| callers::build(self))
            .get(pod)
            .map_or(&[], Vec::as_slice)
    }

    /// The pasted Pods that `service` selects ([`owners::selects`]), for a Service some Pod calls
    /// ([`Model::services_called`]); empty for any other. Judging asks it of each pair of findings
    /// about a caller, so it is found for every called Service once, on first use: asking
    /// [`owners::selects`] of every Pod for each pair was most of judging's time on a 1,000-Pod dump.
    pub fn pods_selected_by(&self, service: &ObjectRef) -> &[ObjectRef] {
        self.called_selects
            .get_or_init(|| {
                let mut selected: Map<ObjectRef, Vec<ObjectRef>> = Map::default();
                for service in self
                    .callers
                    .get_or_init(|| callers::build(self))
                    .values()
                    .flatten()
                {
                    if !selected.contains_key(service) {
                        let pods = self
                            .objects_of_kind("Pod")
                            .filter(|p| owners::selects(self, service, &p.id))
                            .map(|p| p.id.clone())
                            .collect();
                        selected.insert(service.clone(), pods);
                    }
                }
                selected
            })
            .get(service)
            .map_or(&[], Vec::as_slice)
    }

    pub fn build(sources: &'a [Source], ingested: &'a Ingested) -> Self {
        Self::build_with(sources, ingested, None)
    }

    /// [`Model::build`] with the inputs' [`Prescan`], found meanwhile (`sources` must be the same).
    pub fn build_prescanned(sources: &'a [Source], ingested: &'a Ingested, prescan: Prescan) -> Self {
        Self::build_with(sources, ingested, Some(prescan))
    }

    fn build_with(sources: &'a [Source], ingested: &'a Ingested, prescan: Option<Prescan>) -> Self {
        let events: Vec<EventRecord> = ingested
            .objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| events::normalise(i, o))
            .chain(
                ingested
                    .table_events
                    .iter()
                    .map(|(source, row)| events::from_table(*source, row)),
            )
            .collect();
        let mut events_by_subject: Map<(Text, Text), Vec<usize>> = Map::default();
        for (i, e) in events.iter().enumerate() {
            events_by_subject
                .entry((e.subject.kind.clone(), e.subject.name.clone()))
                .or_default()
                .push(i);
        }
        let mut objects_by_name: Map<(&str, &str), Vec<usize>> = Map::default();
        let mut objects_by_namespace: Map<&str, Vec<usize>> = Map::default();
        let mut cluster_scoped = Vec::new();
        let mut objects_by_kind: Map<&str, Vec<usize>> = Map::default();
        for (i, o) in ingested.objects.iter().enumerate() {
            objects_by_name
                .entry((o.id.kind.as_str(), o.id.name.as_str()))
                .or_default()
                .push(i);
            objects_by_kind.entry(o.id.kind.as_str()).or_default().push(i);
            match o.id.namespace.as_deref() {
                Some(namespace) => objects_by_namespace.entry(namespace).or_default().push(i),
                None => cluster_scoped.push(i),
            }
        }
        let graph = graph::build(&ingested.objects);
        let prescan = prescan.map_or_else(std::sync::OnceLock::new, std::sync::OnceLock::from);
        let services = facts::service_chains(&ingested.objects, &graph);
        Self {
            sources,
            objects: &ingested.objects,
            events,
            events_by_subject,
            objects_by_name,
            objects_by_namespace,
            cluster_scoped,
            objects_by_kind,
            graph,
            pod_controllers: std::sync::OnceLock::new(),
            prescan,
            names: sources.iter().map(|s| Name::from(s.name.as_str())).collect(),
            log_years: std::sync::OnceLock::new(),
            callers: std::sync::OnceLock::new(),
            called_selects: std::sync::OnceLock::new(),
            services,
            messages: &ingested.messages,
            outputs: &ingested.outputs,
            logs: &ingested.logs,
            quoted: &ingested.quoted,
            pasted: &ingested.commands,
        }
    }

    /// The first pasted object that is `id`, in input order, unless its uid says it is another
    /// incarnation ([`ObjectRef::uid_contradicts`]): then a later one whose uid agrees, or none. Rules look
    /// up the subject of every event they read: a scan of all objects each time was quadratic on a
    /// large cluster.
    pub fn object(&self, id: &ObjectRef) -> Option<&'a Object> {
        let objects = self.objects;
        self.objects_by_name
            .get(&(id.kind.as_str(), id.name.as_str()))?
            .iter()
            .map(|&i| &objects[i])
            .find(|o| o.id == *id && !o.id.uid_contradicts(id))
    }

    /// Every pasted object that is `id` (kind, namespace, name), in input order: the same Pod read
    /// from a `get` row and from its `describe`, each saying part of what the input knows of it.
    pub fn objects_with_id<'m>(&'m self, id: &'m ObjectRef) -> impl Iterator<Item = &'a Object> + 'm {
        let objects = self.objects;
        self.objects_by_name
            .get(&(id.kind.as_str(), id.name.as_str()))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(move |&i| &objects[i])
            .filter(move |o| o.id == *id)
    }

    /// The pasted objects of one namespace, or (`None`) those pasted without a namespace, in input
    /// order.
    pub fn objects_in(&self, namespace: Option<&str>) -> impl Iterator<Item = &'a Object> + '_ {
        let objects = self.objects;
        let indices: &[usize] = match namespace {
            Some(namespace) => self
                .objects_by_namespace
                .get(namespace)
                .map_or(&[][..], Vec::as_slice),
            None => &self.cluster_scoped,
        };
        indices.iter().map(move |&i| &objects[i])
    }

    /// The pasted objects of one kind, in input order.
    pub fn objects_of_kind(&self, kind: &str) -> impl Iterator<Item = &'a Object> + '_ {
        let objects = self.objects;
        let indices: &[usize] = self.objects_by_kind.get(kind).map_or(&[][..], Vec::as_slice);
        indices.iter().map(move |&i| &objects[i])
    }

    /// The events about one object, matched by kind, namespace and name (and uid when both carry one),
    /// never by name alone; oldest first. A table row without a namespace (a `kubectl get events`
    /// pasted without its command) matches only when one object alone has that kind and name.
    pub fn events_for(&self, subject: &ObjectRef) -> Vec<&EventRecord> {
        let unique_name = || {
            self.objects_by_name
                .get(&(subject.kind.as_str(), subject.name.as_str()))
                .map_or(0, Vec::len)
                <= 1
        };
        let candidates = self
            .events_by_subject
            .get(&(subject.kind.clone(), subject.name.clone()))
            .map_or(&[][..], Vec::as_slice);
        let mut found: Vec<_> = candidates
            .iter()
            .map(|&i| &self.events[i])
            .filter(|e| {
                (e.subject == *subject && !e.subject.uid_contradicts(subject))
                    || (e.subject.namespace.is_none()
                        && subject.namespace.is_some()
                        && matches!(e.origin, EventOrigin::TableRow { .. })
                        && e.subject.kind == subject.kind
                        && e.subject.name == subject.name
                        && unique_name())
            })
            .collect();
        // Absolute times first in time order; table rows (ages only) oldest first.
        found.sort_by_key(|e| (e.last, std::cmp::Reverse(e.last_age)));
        found
    }

    /// The logs of one container of a Pod: the blocks that name the Pod (in its namespace, or in none)
    /// and the container (or no container, for the Pod's first one, which kubectl defaults to). A
    /// block that names no Pod is this Pod's only when the input has no other Pod: then it is
    /// returned with `true` (inferred).
    pub fn logs_for(&self, pod: &ObjectRef, container: &str, first: bool) -> Vec<(&'a LogBlock, bool)> {
        // Most inputs hold no log: nothing to look for (the count of Pods below is a scan).
        if self.logs.is_empty() {
            return Vec::new();
        }
        let container_ok = |b: &LogBlock| b.container.as_deref().map_or(first, |c| c == container);
        let mut found: Vec<(&LogBlock, bool)> = self
            .logs
            .iter()
            .filter(|b| {
                b.kind == "Pod"
                    && b.name.as_deref() == Some(pod.name.as_str())
                    && (b.namespace.is_none() || b.namespace == pod.namespace.as_deref().map(str::to_string))
                    && container_ok(b)
            })
            .map(|b| (b, false))
            .collect();
        if found.is_empty() && self.objects_of_kind("Pod").count() == 1 {
            found.extend(
                self.logs
                    .iter()
                    .filter(|b| b.name.is_none() && container_ok(b))
                    .map(|b| (b, true)),
            );
        }
        found
    }

    /// The logs of a Job's Pods: `kubectl logs job/NAME`, `-l job-name=NAME`, or a Pod named as the
    /// Job controller names its Pods (`NAME-` and five generated characters).
    pub fn logs_for_job(&self, job: &ObjectRef) -> Vec<&'a LogBlock> {
        let ns_ok = |b: &LogBlock| {
            b.namespace.is_none() || b.namespace == job.namespace.as_deref().map(str::to_string)
        };
        let job_pod = |name: &str| {
            name.strip_prefix(job.name.as_str())
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|r| {
                    r.len() == 5 && r.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                })
        };
        self.logs
            .iter()
            .filter(|b| {
                ns_ok(b)
                    && match (b.kind.as_str(), b.name.as_deref()) {
                        ("Job", Some(name)) => name == job.name.as_str(),
                        ("Pod", Some(name)) => job_pod(name),
                        _ => false,
                    }
            })
            .collect()
    }

    /// Evidence for a field of an object, if the field is present in the input.
    pub fn evidence(&self, object: &Object, path: &str) -> Option<Evidence> {
        let (pos, node) = object.locate(path)?;
        Some(Evidence {
            source: self.source_name(object.source),
            line: pos.line,
            path: path.to_string(),
            value: node.as_str().unwrap_or_default().to_string(),
        })
    }

    /// Where a field of an object is: its input and line (for the timeline and the map, which cite
    /// the place, not the value).
    pub fn source_line(&self, object: &Object, path: &str) -> Option<SourceLine> {
        let (pos, _) = object.locate(path)?;
        Some(SourceLine {
            source: self.source_name(object.source),
            line: pos.line,
        })
    }

    /// Where an event's message is: the field of an Event object, or the row of a table.
    pub fn event_source_line(&self, event: &EventRecord) -> Option<SourceLine> {
        match event.origin {
            EventOrigin::Object { index, message_path } => {
                self.source_line(self.objects.get(index)?, message_path)
            }
            EventOrigin::TableRow { source, line } => Some(SourceLine {
                source: self.source_name(source),
                line,
            }),
        }
    }

    /// The name of an input, as a line of the report cites it (shared, not copied).
    pub fn source_name(&self, index: usize) -> Name {
        self.names.get(index).cloned().unwrap_or_default()
    }

    /// The evidence of the newest `newest` of `events` (given oldest first), newest first: what a
    /// rule cites of a subject's events.
    pub fn newest_events_evidence(&self, events: &[&EventRecord], newest: usize) -> Vec<Evidence> {
        events
            .iter()
            .rev()
            .take(newest)
            .filter_map(|e| self.event_evidence(e))
            .collect()
    }

    /// Evidence for an event's message: the field of an Event object, or the row of a table.
    pub fn event_evidence(&self, event: &EventRecord) -> Option<Evidence> {
        match event.origin {
            EventOrigin::Object { index, message_path } => {
                self.evidence(self.objects.get(index)?, message_path)
            }
            EventOrigin::TableRow { source, line } => Some(Evidence {
                source: self.source_name(source),
                line,
                path: format!(
                    "events table: {} {} {}/{}",
                    event.type_, event.reason, event.subject.kind, event.subject.name
                ),
                value: event.message.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_ingest::ingest;

    #[test]
    fn object_is_found_by_kind_namespace_name_and_uid_first_in_input_order() {
        let text = "\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: a, uid: u1}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: b, uid: u2}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: b}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: b, uid: u3}
";
        let sources = [Source::new("t.yaml", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let id = |kind: &str, ns: &str, uid: Option<&str>| ObjectRef {
            kind: kind.into(),
            namespace: Some(ns.into()),
            name: "web".into(),
            uid: uid.map(Into::into),
        };
        let found = |r: ObjectRef| model.object(&r).map(|o| o.id.uid.clone());
        assert_eq!(found(id("Pod", "a", None)), Some(Some("u1".into())));
        // Two Pods named web in b: the first, unless the uid says which.
        assert_eq!(found(id("Pod", "b", None)), Some(Some("u2".into())));
        assert_eq!(found(id("Pod", "b", Some("u3"))), Some(Some("u3".into())));
        assert_eq!(found(id("Pod", "b", Some("u9"))), None);
        assert_eq!(found(id("Service", "b", None)), Some(None));
        assert_eq!(found(id("Service", "a", None)), None);
        assert_eq!(found(id("Deployment", "b", None)), None);
        let in_b: Vec<(&str, Option<&str>)> = model
            .objects_in(Some("b"))
            .map(|o| (o.id.kind.as_str(), o.id.uid.as_deref()))
            .collect();
        assert_eq!(
            in_b,
            [("Pod", Some("u2")), ("Service", None), ("Pod", Some("u3"))]
        );
        assert_eq!(
            model.objects_in(None).count(),
            0,
            "every object here has a namespace"
        );
        assert_eq!(model.objects_in(Some("c")).count(), 0);
        let pods: Vec<Option<&str>> = model
            .objects_of_kind("Pod")
            .map(|o| o.id.uid.as_deref())
            .collect();
        assert_eq!(pods, [Some("u1"), Some("u2"), Some("u3")]);
        assert_eq!(model.objects_of_kind("Node").count(), 0);
    }
}
