use faultline_model::views::ingress_admission::{AddressShown, Unclaimed};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// An Ingress that no ingress controller has admitted: it names an IngressClass
    /// (`spec.ingressClassName`, or the `kubernetes.io/ingress.class` annotation) that is not among
    /// the IngressClasses pasted, or names none while no pasted IngressClass is the default
    /// (`ingressclass.kubernetes.io/is-default-class: "true"`) — judged only when IngressClasses were
    /// pasted; or it has no address: `kubectl get ingress` with an empty ADDRESS, `status.loadBalancer`
    /// with no `ingress` entry in a live object, describe's `Address:` empty.
    ///
    /// ## Why it matters
    /// The Ingress object exists, its backends may be healthy, and still nothing answers on its host:
    /// the ingress controller publishes an address for the Ingresses it serves, and an Ingress of a
    /// class no controller watches is served by none. The ingress controller (its Pods, the class it
    /// watches) is what to check, not the Service or the application.
    ///
    /// ## Evidence
    /// The Ingress's class (field or annotation), the IngressClasses pasted with their default
    /// annotation, and its address: the ADDRESS cell, `status.loadBalancer`, or describe's `Address:`.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: the path from a client to the Service's endpoints, here its first hop,
    /// the ingress controller.
    ///
    /// ## What this evidence cannot establish
    /// Whether an ingress controller runs and which class it watches: its Pods and its configuration
    /// are not in an Ingress. An Ingress created seconds ago has no address yet. An address says the
    /// controller took it, not that its backends answer.
    ///
    /// ## Next evidence to collect
    /// `kubectl get ingressclass`, the ingress controller's Pods and log (`kubectl get pods -A -l
    /// app.kubernetes.io/component=controller`), and `kubectl describe ingress NAME -n NS` for its
    /// events and backends.
    ///
    /// ## Example
    /// ```text
    /// NAME           HOSTS   ADDRESS   PORTS   AGE
    /// test-ingress   *                 80      59s
    /// ```
    pub const RULE = { id: "ingress-not-admitted", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice], check: check };
}

faultline_report::messages! {
    /// The words of `ingress-not-admitted`.
    pub enum Msg {
        /// The Ingress names a class that is not among the IngressClasses pasted.
        ClassMissing { subject: ObjectRef, class: Text, classes: Vec<Text> } = "ingress-not-admitted.class-missing" {
            en: "{subject} names IngressClass {class}, which is not among the IngressClasses pasted ({classes}): no ingress controller claims it, so it gets no address and serves no traffic. Check the ingress controller that should serve it and the class it watches.",
            zh: "{subject} 指定的 IngressClass 是 {class}，它不在粘贴的 IngressClass（{classes}）之中：没有 Ingress 控制器认领它，所以它得不到地址，也不承载任何流量。请检查本应为它服务的 Ingress 控制器及其监视的类。",
        },
        /// The Ingress names no class and none of the IngressClasses pasted is the default.
        NoClass { subject: ObjectRef, classes: Vec<Text> } = "ingress-not-admitted.no-class" {
            en: "{subject} names no IngressClass and none of the IngressClasses pasted ({classes}) is marked default: no ingress controller claims it, so it gets no address and serves no traffic. Check the ingress controller that should serve it and the class it watches.",
            zh: "{subject} 没有指定 IngressClass，而粘贴的 IngressClass（{classes}）中没有一个被标记为默认类：没有 Ingress 控制器认领它，所以它得不到地址，也不承载任何流量。请检查本应为它服务的 Ingress 控制器及其监视的类。",
        },
        /// The Ingress has no address; `class` is the one it names, when it names one.
        NoAddress { subject: ObjectRef, class: Option<Text>, from: Box<Message> } = "ingress-not-admitted.no-address" {
            en: {
                let class = class.0.as_ref().map(|c| format!(" for class {c}")).unwrap_or_default();
                format!("{subject} has no address ({from}): no ingress controller has admitted it, so nothing serves its rules. Check that the ingress controller{class} is running and watches it.")
            },
            zh: {
                let class = class.0.as_ref().map(|c| format!("（类 {c}）")).unwrap_or_default();
                format!("{subject} 没有地址（{from}）：没有 Ingress 控制器接纳它，所以它的规则无人承载。请检查负责它的 Ingress 控制器{class}是否在运行、是否在监视它。")
            },
        },
        AddressCell {} = "ingress-not-admitted.address-cell" {
            en: "kubectl get ingress shows ADDRESS empty",
            zh: "kubectl get ingress 的 ADDRESS 为空",
        },
        DescribedAddress {} = "ingress-not-admitted.described-address" {
            en: "kubectl describe ingress shows Address: empty",
            zh: "kubectl describe ingress 的 Address: 为空",
        },
        LoadBalancerEmpty {} = "ingress-not-admitted.load-balancer-empty" {
            en: "status.loadBalancer has no ingress entry",
            zh: "status.loadBalancer 中没有 ingress 条目",
        },
        Controller {} = "ingress-not-admitted.controller" {
            en: "Whether an ingress controller runs and which class it watches: its Pods and configuration are not in an Ingress.",
            zh: "是否有 Ingress 控制器在运行、它监视哪个类：Ingress 对象里没有它的 Pod 和配置。",
        },
        JustCreated {} = "ingress-not-admitted.just-created" {
            en: "Whether the Ingress was created only seconds before the capture: a controller takes a moment to publish an address.",
            zh: "这个 Ingress 是否在采集前几秒才创建：控制器发布地址需要一点时间。",
        },
        ClassesNotPasted {} = "ingress-not-admitted.classes-not-pasted" {
            en: "Whether its IngressClass exists: no IngressClass was pasted (kubectl get ingressclass).",
            zh: "它的 IngressClass 是否存在：输入中没有 IngressClass（kubectl get ingressclass）。",
        },
        Backends {} = "ingress-not-admitted.backends" {
            en: "Whether its backend Services have ready endpoints: that is the next hop, once a controller serves it.",
            zh: "它的后端 Service 是否有就绪的端点：那是控制器接手之后的下一跳。",
        },
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let classes = model.ingress_classes();
    for ingress in model.ingresses().into_iter().filter(|i| !i.admitted()) {
        let id = ingress.id;
        let class = ingress.class();
        let mut evidence: Vec<Evidence> = Vec::new();
        if let Some((o, _, path)) = class {
            evidence.extend(model.evidence(o, path));
        }
        let class_name = class.map(|(_, c, _)| c);
        let (subject, names) = (id.clone(), classes.names.clone());
        let summary: Option<Message> = classes.unclaimed(class_name).map(|unclaimed| match unclaimed {
            Unclaimed::ClassMissing(c) => Msg::ClassMissing {
                subject,
                class: c.into(),
                classes: names,
            }
            .into(),
            Unclaimed::NoClass => Msg::NoClass {
                subject,
                classes: names,
            }
            .into(),
        });
        let unclaimed = summary.is_some();
        if unclaimed {
            evidence.extend(classes.evidence(model));
        }
        let empty_address = ingress.empty_address();
        if let Some((o, address)) = &empty_address {
            evidence.extend(model.evidence(o, address.path));
        }
        let summary = match (summary, empty_address) {
            (Some(s), _) => s,
            (None, Some((_, address))) => {
                let from: Msg = match address.shown {
                    AddressShown::GetColumn => Msg::AddressCell {},
                    AddressShown::Described => Msg::DescribedAddress {},
                    AddressShown::LoadBalancer => Msg::LoadBalancerEmpty {},
                };
                let class = class_name.map(Text::from);
                Msg::NoAddress {
                    subject: id.clone(),
                    class,
                    from: Box::new(from.into()),
                }
                .into()
            }
            (None, None) => continue,
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::Controller {}.into()];
        cannot_establish.extend((!unclaimed).then(|| Msg::JustCreated {}.into()));
        cannot_establish.extend(
            classes
                .objects
                .is_empty()
                .then(|| Msg::ClassesNotPasted {}.into()),
        );
        cannot_establish.push(Msg::Backends {}.into());
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let next_steps = vec![
            "kubectl get ingressclass".to_string(),
            "kubectl get pods -A -l app.kubernetes.io/component=controller -o wide".to_string(),
            command!("kubectl describe ingress {} -n {}", id.name, ns),
        ];
        let severity = if unclaimed {
            Severity::Error
        } else {
            Severity::Warning
        };
        findings.push(RULE.finding(
            severity,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}
