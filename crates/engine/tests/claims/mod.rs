//! The absence claims and how each is checked against the parsed input (`absence_claims.rs`).

use faultline_engine::ingest::node::Node;
use faultline_engine::ingest::Object;
use faultline_engine::message::{ArgValue, Message};
use faultline_engine::model::owners::descends_from;
use faultline_engine::model::Model;
use faultline_engine::{Finding, ObjectRef};

mod not_claims;
pub use not_claims::NOT_ABSENCE_CLAIMS;

/// What an absence claim says is not in the input, checked against the parsed input: `Err` says
/// what was read that contradicts it.
pub type Check = fn(&Model<'_>, &Finding, &Message) -> Result<(), String>;

fn object_arg<'m>(message: &'m Message, name: &str) -> &'m ObjectRef {
    message
        .args()
        .into_iter()
        .find_map(|(n, v)| match v {
            ArgValue::Object(o) if n == name => Some(o),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}: no object argument {name}", message.id()))
}

fn str_arg(message: &Message, name: &str) -> String {
    message
        .args()
        .into_iter()
        .find_map(|(n, v)| match v {
            ArgValue::Str(s) if n == name => Some(s.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}: no text argument {name}", message.id()))
}

fn num_arg(message: &Message, name: &str) -> i64 {
    message
        .args()
        .into_iter()
        .find_map(|(n, v)| match v {
            ArgValue::Num(v) if n == name => Some(v),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{}: no number argument {name}", message.id()))
}

fn pasted<'a>(model: &Model<'a>, r: &ObjectRef) -> Vec<&'a Object> {
    model
        .objects
        .iter()
        .filter(|o| o.id.kind == r.kind && o.id.name == r.name && o.id.namespace == r.namespace)
        .collect()
}

/// `{subject} itself was not pasted`.
fn subject_not_pasted(model: &Model<'_>, _: &Finding, m: &Message) -> Result<(), String> {
    let subject = object_arg(m, "subject");
    match pasted(model, subject).first() {
        Some(o) => Err(format!("{subject} was read from input {} ", o.source)),
        None => Ok(()),
    }
}

/// The finding's subject was not pasted (a message about it without an object argument).
fn finding_subject_not_pasted(model: &Model<'_>, finding: &Finding, _: &Message) -> Result<(), String> {
    match pasted(model, &finding.subject).first() {
        Some(o) => Err(format!("{} was read from input {} ", finding.subject, o.source)),
        None => Ok(()),
    }
}

fn none_of_kind(model: &Model<'_>, kind: &str, namespace: Option<&str>) -> Result<(), String> {
    let found = model
        .objects_of_kind(kind)
        .filter(|o| namespace.is_none() || o.id.namespace.as_deref() == namespace)
        .count();
    if found == 0 {
        Ok(())
    } else {
        Err(format!("{found} {kind} objects were read"))
    }
}

/// No pasted Pod of the component (its name starts with the component's) has a container whose
/// args give the registrar's `--kubelet-registration-path`.
fn registration_path_not_pasted(model: &Model<'_>, component: &str) -> Result<(), String> {
    for pod in model
        .objects_of_kind("Pod")
        .filter(|p| p.id.name.starts_with(component))
    {
        let Some((_, containers)) = pod.locate("spec.containers") else {
            continue;
        };
        for container in containers.items() {
            let args = container.get("args").map(Node::items).unwrap_or_default();
            if args
                .iter()
                .filter_map(Node::as_str)
                .any(|a| a.contains("--kubelet-registration-path"))
            {
                return Err(format!("{} was read with the registrar's args", pod.id));
            }
        }
    }
    Ok(())
}

/// No kube-scheduler Pod was read in kube-system.
fn no_scheduler_pod(model: &Model<'_>) -> Result<(), String> {
    match model
        .objects_of_kind("Pod")
        .find(|p| p.id.name.starts_with("kube-scheduler") && p.id.namespace.as_deref() == Some("kube-system"))
    {
        Some(p) => Err(format!("{} was read from input {}", p.id, p.source)),
        None => Ok(()),
    }
}

/// The pasted Pod the finding is about and its container's spec node named `container`.
fn container_spec<'a>(model: &Model<'a>, finding: &Finding, container: &str) -> Option<&'a Node> {
    pasted(model, &finding.subject).into_iter().find_map(|pod| {
        ["initContainers", "containers"].iter().find_map(|key| {
            pod.locate(&format!("spec.{key}"))?
                .1
                .items()
                .iter()
                .find(|c| c.get("name").and_then(Node::as_str) == Some(container))
        })
    })
}

/// The absence claims and their checks, by message id.
/// No container of the finding's Pod was read with a termination (`state.terminated` or
/// `lastState.terminated`).
fn no_termination_read(model: &Model<'_>, finding: &Finding, _: &Message) -> Result<(), String> {
    for pod in pasted(model, &finding.subject) {
        let statuses = pod
            .locate("status.containerStatuses")
            .map(|(_, c)| c.items())
            .unwrap_or_default();
        for status in statuses {
            for key in ["state", "lastState"] {
                if let Some(terminated) = status.get(key).and_then(|s| s.get("terminated")) {
                    return Err(format!(
                        "a termination of {} was read at line {}",
                        pod.id, terminated.pos.line
                    ));
                }
            }
        }
    }
    Ok(())
}

pub const CLAIMS: &[(&str, Check)] = &[
    ("judge.likely-from-events", |model, _, m| {
        let object = object_arg(m, "object");
        match pasted(model, object).first() {
            Some(o) => Err(format!("{object} was read from input {}", o.source)),
            None => Ok(()),
        }
    }),
    // A presence claim, checked the same way: the object it cites was read.
    ("judge.established-by-state", |model, _, m| {
        let object = object_arg(m, "object");
        if pasted(model, object).is_empty() {
            Err(format!("{object} was not read"))
        } else {
            Ok(())
        }
    }),
    ("container-crash-looping.not-pasted", subject_not_pasted),
    ("job-failed.not-pasted", subject_not_pasted),
    ("container-config-invalid.not-pasted", subject_not_pasted),
    ("image-pull-failed.not-pasted", subject_not_pasted),
    ("proxy-found-no-endpoints.service-not-pasted", subject_not_pasted),
    ("readiness-probe-failing.not-pasted", subject_not_pasted),
    ("pod-unschedulable.not-pasted", subject_not_pasted),
    ("volume-mount-failed.not-pasted", subject_not_pasted),
    ("pod-unschedulable.no-nodes", |model, _, _| {
        none_of_kind(model, "Node", None)
    }),
    ("node-not-ready.from-events", subject_not_pasted),
    ("node-not-ready.conditions-not-pasted", |model, finding, _| {
        for node in pasted(model, &finding.subject) {
            let ready = node.locate("status.conditions").is_some_and(|(_, c)| {
                c.items()
                    .iter()
                    .any(|c| c.get("type").and_then(Node::as_str) == Some("Ready"))
            });
            if ready {
                return Err(format!("{} was read with a Ready condition", node.id));
            }
        }
        Ok(())
    }),
    ("metrics-api-unavailable.from-events", subject_not_pasted),
    ("metrics-api-unavailable.events-only", finding_subject_not_pasted),
    ("volume-reclaim-failed.from-events", subject_not_pasted),
    ("volume-reclaim-failed.events-only", finding_subject_not_pasted),
    ("node-not-ready.no-pods", |model, _, _| {
        none_of_kind(model, "Pod", None)
    }),
    ("pvc-pending.no-storage-class", |model, _, _| {
        none_of_kind(model, "StorageClass", None)
    }),
    ("node-pod-capacity-reached.other-nodes", |model, finding, _| {
        let others = model
            .objects_of_kind("Node")
            .filter(|n| n.id.name != finding.subject.name)
            .count();
        if others == 0 {
            Ok(())
        } else {
            Err(format!("{others} other Nodes were read"))
        }
    }),
    ("quota-exceeded-on-create.no-pods-pasted", |model, _, m| {
        none_of_kind(model, "Pod", Some(&str_arg(m, "namespace")))
    }),
    ("resource-quota-exhausted.no-pods-pasted", |model, _, m| {
        none_of_kind(model, "Pod", Some(&str_arg(m, "namespace")))
    }),
    ("quota-exceeded-on-create.no-quota-pasted", |model, _, m| {
        none_of_kind(model, "ResourceQuota", Some(&str_arg(m, "namespace")))
    }),
    ("rollout-not-progressing.nothing-below", |model, _, m| {
        let subject = object_arg(m, "subject");
        let below: Vec<String> = model
            .objects_in(subject.namespace.as_deref())
            .filter(|o| matches!(o.id.kind.as_str(), "ReplicaSet" | "Pod"))
            .filter(|o| descends_from(model, &o.id, subject))
            .map(|o| o.id.to_string())
            .collect();
        if below.is_empty() {
            Ok(())
        } else {
            Err(format!("read below it: {below:?}"))
        }
    }),
    ("service-endpoints-not-serving.no-slice", |model, _, m| {
        let subject = object_arg(m, "subject");
        let slices: Vec<String> = model
            .objects_in(subject.namespace.as_deref())
            .filter(|o| o.id.kind == "EndpointSlice")
            .filter(|o| {
                o.locate("metadata.labels")
                    .and_then(|(_, l)| {
                        l.get("kubernetes.io/service-name")?
                            .as_str()
                            .map(|n| n == subject.name)
                    })
                    .unwrap_or(false)
            })
            .map(|o| o.id.to_string())
            .collect();
        if slices.is_empty() {
            Ok(())
        } else {
            Err(format!("slices of it were read: {slices:?}"))
        }
    }),
    ("service-endpoints-not-serving.selects-nothing", |model, _, m| {
        let subject = object_arg(m, "subject");
        let selected: Vec<String> = model
            .services
            .iter()
            .filter(|c| {
                model.objects[c.service].id.name == subject.name
                    && model.objects[c.service].id.namespace == subject.namespace
            })
            .flat_map(|c| c.pods.iter().map(|&p| model.objects[p].id.to_string()))
            .collect();
        if selected.is_empty() {
            Ok(())
        } else {
            Err(format!("it selects pasted Pods {selected:?}"))
        }
    }),
    ("container-oom-killed.no-limit-in-spec", |model, finding, m| {
        let container = str_arg(m, "container");
        let spec = container_spec(model, finding, &container).ok_or_else(|| {
            format!("no spec of container {container} was read, though the claim says it was")
        })?;
        match spec.locate("resources.limits.memory") {
            Some((pos, n)) => Err(format!(
                "its limit {:?} was read at line {}",
                n.as_str(),
                pos.line
            )),
            None => Ok(()),
        }
    }),
    ("container-oom-killed.spec-not-pasted", |model, finding, m| {
        let container = str_arg(m, "container");
        match container_spec(model, finding, &container) {
            Some(spec) => Err(format!(
                "the spec of container {container} was read at line {}",
                spec.pos.line
            )),
            None => Ok(()),
        }
    }),
    (
        "container-crash-looping.restarts-unexplained",
        no_termination_read,
    ),
    ("container-crash-looping.how-it-ended", no_termination_read),
    ("container-start-failed.no-spec", |model, finding, _| {
        let specs: usize = pasted(model, &finding.subject)
            .iter()
            .map(|p| p.locate("spec.containers").map_or(0, |(_, c)| c.items().len()))
            .sum();
        if specs == 0 {
            Ok(())
        } else {
            Err(format!("{specs} container specs of it were read"))
        }
    }),
    ("startup-probe-failing.budget-unknown", |model, finding, _| {
        let probes = pasted(model, &finding.subject)
            .iter()
            .flat_map(|p| {
                p.locate("spec.containers")
                    .map(|(_, c)| c.items())
                    .unwrap_or_default()
            })
            .filter(|c| c.get("startupProbe").is_some())
            .count();
        if probes == 0 {
            Ok(())
        } else {
            Err(format!("{probes} startupProbes were read"))
        }
    }),
    ("runtime-memory-over-limit.over-limit", |model, finding, m| {
        let container = str_arg(m, "container");
        let killed = pasted(model, &finding.subject).iter().any(|p| {
            ["containerStatuses", "initContainerStatuses"].iter().any(|key| {
                p.locate(&format!("status.{key}"))
                    .map(|(_, s)| s.items())
                    .unwrap_or_default()
                    .iter()
                    .filter(|s| s.get("name").and_then(Node::as_str) == Some(container.as_str()))
                    .any(|s| {
                        ["state", "lastState"].iter().any(|st| {
                            s.locate(&format!("{st}.terminated.reason"))
                                .and_then(|(_, r)| r.as_str())
                                == Some("OOMKilled")
                        })
                    })
            })
        });
        if killed {
            Err(format!("container {container} was read as OOMKilled"))
        } else {
            Ok(())
        }
    }),
    ("env-host-not-a-service.not-a-service", |model, _, m| {
        let (service, namespace) = (str_arg(m, "service"), str_arg(m, "namespace"));
        let services: Vec<&Object> = model
            .objects_in(Some(&namespace))
            .filter(|o| o.id.kind == "Service")
            .collect();
        let count = num_arg(m, "count");
        if services.iter().any(|o| o.id.name == service) {
            Err(format!("Service {namespace}/{service} was read"))
        } else if services.len() as i64 != count {
            Err(format!(
                "{} Services of {namespace} were read, the claim says {count}",
                services.len()
            ))
        } else {
            Ok(())
        }
    }),
    ("referenced-object-missing.missing", |model, _, m| {
        let missing = object_arg(m, "missing");
        let of_kind = model
            .objects_in(missing.namespace.as_deref())
            .filter(|o| o.id.kind == missing.kind)
            .count() as i64;
        if !pasted(model, missing).is_empty() {
            Err(format!("{missing} was read"))
        } else if of_kind != num_arg(m, "count") {
            Err(format!(
                "{of_kind} of its kind were read, the claim says {}",
                num_arg(m, "count")
            ))
        } else {
            Ok(())
        }
    }),
    ("cluster-component-failing.service-named", |model, _, m| {
        let service = object_arg(m, "service");
        match pasted(model, service)
            .iter()
            .find(|s| s.locate("spec.selector").is_some())
        {
            Some(s) => Err(format!(
                "{service} was read with its selector from input {}",
                s.source
            )),
            None => Ok(()),
        }
    }),
    ("cluster-component-failing.driver-from-table", |model, _, m| {
        registration_path_not_pasted(model, &str_arg(m, "component"))
    }),
    (
        "cluster-component-failing.controller-driver-from-table",
        |model, _, m| {
            // No event reported by one of the controller's Pods (`<driver>_<pod>_<uuid>`) was read.
            let component = str_arg(m, "component");
            match model.events.iter().find(|e| {
                e.reporter
                    .as_deref()
                    .and_then(|r| r.split_once('_'))
                    .is_some_and(|(driver, pod)| {
                        driver.contains('.') && pod.starts_with(&format!("{component}-"))
                    })
            }) {
                Some(e) => Err(format!("an event reported by {:?} was read", e.reporter)),
                None => Ok(()),
            }
        },
    ),
    (
        "referenced-object-missing.kubelet-cannot-retrieve",
        |model, _, m| {
            let missing = object_arg(m, "missing");
            match pasted(model, missing).first() {
                Some(s) => Err(format!("{missing} was read from input {}", s.source)),
                None => Ok(()),
            }
        },
    ),
    ("cluster-component-failing.driver-unknown", |model, finding, _| {
        registration_path_not_pasted(model, &finding.subject.name)
    }),
    (
        "container-init-oom-killed.whose-limit",
        |model, finding, _| match pasted(model, &finding.subject)
            .iter()
            .find(|p| p.locate("spec.containers").is_some())
        {
            Some(p) => Err(format!("{} was read with its spec from input {}", p.id, p.source)),
            None => Ok(()),
        },
    ),
    ("scheduler-not-running.no-scheduler-pod", |model, _, _| {
        no_scheduler_pod(model)
    }),
    ("scheduler-not-running.why-not", |model, _, _| {
        no_scheduler_pod(model)
    }),
    ("ingress-not-admitted.class-missing", |model, _, m| {
        let class = str_arg(m, "class");
        match model
            .objects_of_kind("IngressClass")
            .find(|c| c.id.name == class.as_str())
        {
            Some(c) => Err(format!("IngressClass {class} was read from input {}", c.source)),
            None => Ok(()),
        }
    }),
    ("ingress-not-admitted.no-class", |model, _, _| {
        let default = model.objects_of_kind("IngressClass").find(|c| {
            c.locate("metadata.annotations[\"ingressclass.kubernetes.io/is-default-class\"]")
                .and_then(|(_, v)| v.as_str())
                == Some("true")
        });
        match default {
            Some(c) => Err(format!("{} is marked default", c.id)),
            None => Ok(()),
        }
    }),
    ("ingress-not-admitted.classes-not-pasted", |model, _, _| {
        none_of_kind(model, "IngressClass", None)
    }),
    (
        "dns-policy-bypasses-cluster-dns.kube-dns-not-pasted",
        |model, _, _| {
            let read: Vec<String> = model
                .objects_in(Some("kube-system"))
                .filter(|o| o.id.kind == "Service" && matches!(o.id.name.as_str(), "kube-dns" | "coredns"))
                .filter(|o| o.locate("spec.clusterIP").is_some())
                .map(|o| o.id.to_string())
                .collect();
            if read.is_empty() {
                Ok(())
            } else {
                Err(format!("read with its clusterIP: {read:?}"))
            }
        },
    ),
    // dependency-failing's ties: a Service or Pods it names were read; a name no Service has was
    // not.
    ("dependency-failing.no-endpoints", service_read),
    ("dependency-failing.pasted", service_read),
    ("dependency-failing.port-not-served", service_read),
    ("dependency-failing.callee-not-ready", |model, _, m| {
        let pods = m.args().into_iter().find(|(n, _)| *n == "pods").map(|(_, v)| v);
        let Some(ArgValue::List(items)) = pods else {
            return Err("no Pod named".to_string());
        };
        for item in items {
            match item {
                ArgValue::Object(pod) if !pasted(model, pod).is_empty() => {}
                other => return Err(format!("not a Pod read: {other:?}")),
            }
        }
        Ok(())
    }),
    ("dependency-failing.no-service", |model, _, m| {
        let (name, namespace) = (str_arg(m, "name"), str_arg(m, "namespace"));
        let read = model
            .objects_in(Some(namespace.as_str()))
            .any(|o| o.id.kind == "Service" && o.id.name == name);
        if read {
            Err(format!("Service {namespace}/{name} was read"))
        } else {
            Ok(())
        }
    }),
];

/// The Service a message names was read.
fn service_read(model: &Model<'_>, _: &Finding, m: &Message) -> Result<(), String> {
    let service = object_arg(m, "service");
    if pasted(model, service).is_empty() {
        Err(format!("{service} was not read"))
    } else {
        Ok(())
    }
}
