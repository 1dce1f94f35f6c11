//! What `cluster-component-failing` says.

use super::*;

faultline_report::messages! {
    /// The words of `cluster-component-failing`.
    pub enum Msg {
        /// A cluster component failing: which, what it does, how it fails, what it breaks, and the
        /// symptoms of it in the input (or none).
        Failing { component: Text, role: Box<Message>, state: Vec<Message>, breaks: Box<Message>, explained: Box<Message> } = "cluster-component-failing.failing" {
            en: "{component}, {role}, is failing: {state}. {breaks} {explained}",
            zh: "{component}（{role}）出现故障：{state}。{breaks}{explained}",
        },
        /// One failing Pod of the component and its state.
        PodState { pod: ObjectRef, state: Vec<Message> } = "cluster-component-failing.pod-state" {
            en: { format!("Pod {}: {state}", pod.0.name) },
            zh: { format!("Pod {} 的状态：{state}", pod.0.name) },
        },
        /// The workload's ready count below its desired count.
        NotAvailable { workload: ObjectRef, ready: u32, desired: u32 } = "cluster-component-failing.not-available" {
            en: "{workload} has {ready} of {desired} ready",
            zh: "{workload} 只有 {ready}/{desired} 就绪",
        },
        RoleCsiNode {} = "cluster-component-failing.role-csi-node" {
            en: "the CSI node plugin that registers its driver with each node's kubelet",
            zh: "向各节点 kubelet 注册驱动的 CSI 节点插件",
        },
        RoleCsiController {} = "cluster-component-failing.role-csi-controller" {
            en: "the CSI controller plugin that provisions and attaches its driver's volumes",
            zh: "负责为其驱动创建和挂接卷的 CSI 控制器插件",
        },
        RoleCni {} = "cluster-component-failing.role-cni" {
            en: "the CNI agent that sets up each Pod's network on its node",
            zh: "在各节点上为 Pod 配置网络的 CNI 代理",
        },
        RoleKubeProxy {} = "cluster-component-failing.role-kube-proxy" {
            en: "the node agent that programs Service virtual IPs",
            zh: "在节点上配置 Service 虚拟 IP 的节点代理",
        },
        RoleDns {} = "cluster-component-failing.role-dns" {
            en: "the cluster DNS that resolves Service and Pod names",
            zh: "解析 Service 和 Pod 名称的集群 DNS",
        },
        RoleMetrics {} = "cluster-component-failing.role-metrics" {
            en: "the server of the resource metrics API (metrics.k8s.io)",
            zh: "资源指标 API（metrics.k8s.io）的服务端",
        },
        RoleIngress {} = "cluster-component-failing.role-ingress" {
            en: "the ingress controller that gives Ingresses their address and routes their traffic",
            zh: "为 Ingress 分配地址并转发其流量的 Ingress 控制器",
        },
        RoleWebhook {} = "cluster-component-failing.role-webhook" {
            en: "the backend of an admission webhook the API server calls",
            zh: "API 服务器调用的准入 Webhook 的后端",
        },
        /// What a failing CSI node plugin breaks; `drivers` when known.
        BreaksMounts { drivers: Option<String> } = "cluster-component-failing.breaks-mounts" {
            en: {
                match drivers.0 {
                    Some(d) => format!("While it is down, Pods on its nodes cannot mount volumes of {d}: the kubelet does not find the driver registered."),
                    None => "While it is down, Pods on its nodes cannot mount its driver's volumes: the kubelet does not find the driver registered.".to_string(),
                }
            },
            zh: {
                match drivers.0 {
                    Some(d) => format!("在它恢复之前，它所在节点上的 Pod 无法挂载 {d} 的卷：kubelet 找不到已注册的驱动。"),
                    None => "在它恢复之前，它所在节点上的 Pod 无法挂载其驱动的卷：kubelet 找不到已注册的驱动。".to_string(),
                }
            },
        },
        BreaksProvisioning { drivers: Option<String> } = "cluster-component-failing.breaks-provisioning" {
            en: {
                match drivers.0 {
                    Some(d) => format!("While it is down, volumes of {d} are not created or attached: claims stay Pending and attachments time out."),
                    None => "While it is down, its driver's volumes are not created or attached: claims stay Pending and attachments time out.".to_string(),
                }
            },
            zh: {
                match drivers.0 {
                    Some(d) => format!("在它恢复之前，{d} 的卷不会被创建或挂接：PVC 一直 Pending，挂接会超时。"),
                    None => "在它恢复之前，其驱动的卷不会被创建或挂接：PVC 一直 Pending，挂接会超时。".to_string(),
                }
            },
        },
        BreaksSandboxes {} = "cluster-component-failing.breaks-sandboxes" {
            en: "While it is down, new Pods on its nodes get no sandbox (FailedCreatePodSandBox) and the nodes' network may not be ready.",
            zh: "在它恢复之前，它所在节点上的新 Pod 无法建立沙箱（FailedCreatePodSandBox），节点的网络也可能未就绪。",
        },
        BreaksServices {} = "cluster-component-failing.breaks-services" {
            en: "While it is down, Service addresses on its nodes are not updated: connections to ClusterIPs may fail or reach old endpoints.",
            zh: "在它恢复之前，它所在节点上的 Service 地址规则得不到更新：访问 ClusterIP 可能失败，或者到达已失效的端点。",
        },
        BreaksLookups {} = "cluster-component-failing.breaks-lookups" {
            en: "While it is down, lookups of Service names fail (no such host, or an i/o timeout to port 53).",
            zh: "在它恢复之前，Service 名称的解析会失败（no such host，或访问 53 端口 i/o timeout）。",
        },
        BreaksMetrics {} = "cluster-component-failing.breaks-metrics" {
            en: "While it is down, HPAs cannot get resource metrics (FailedGetResourceMetric) and do not scale, and kubectl top fails.",
            zh: "在它恢复之前，HPA 无法获取资源指标（FailedGetResourceMetric），不会扩缩容，kubectl top 也会失败。",
        },
        BreaksIngress {} = "cluster-component-failing.breaks-ingress" {
            en: "While it is down, the Ingresses of its class get no address and their traffic is not routed.",
            zh: "在它恢复之前，属于它的 Ingress 类的 Ingress 拿不到地址，其流量也得不到转发。",
        },
        BreaksAdmission {} = "cluster-component-failing.breaks-admission" {
            en: "While it is down, the API server cannot call its webhook: requests it covers are refused, or admitted unchecked if its failurePolicy is Ignore.",
            zh: "在它恢复之前，API 服务器无法调用它的 Webhook：它覆盖的请求会被拒绝；如果 failurePolicy 为 Ignore，则不经检查直接放行。",
        },
        /// The symptoms of the component's failure in the input, each with how it is linked.
        Explains { links: Vec<Message> } = "cluster-component-failing.explains" {
            en: "It explains what is listed under it: {links}.",
            zh: "它解释了列在其下的症状：{links}。",
        },
        NoSymptom {} = "cluster-component-failing.no-symptom" {
            en: "No symptom of it is in the input.",
            zh: "输入中没有它造成的症状。",
        },
        /// The component's own Pod's finding (a detail of its failure; not listed in the text).
        Own {} = "cluster-component-failing.own" {
            en: "its own Pod",
            zh: "它自己的 Pod",
        },
        /// Evidence: the symptom's error names the driver the plugin registers.
        DriverNamed { symptom: ObjectRef, driver: String } = "cluster-component-failing.driver-named" {
            en: "{symptom}, whose message names the driver {driver} this plugin serves (evidence)",
            zh: "{symptom}，其消息指名了这个插件所服务的驱动 {driver}（证据）",
        },
        /// Inference: the driver in the error matches the plugin's name; which driver it registers was not pasted.
        NameMatches { symptom: ObjectRef, driver: String } = "cluster-component-failing.name-matches" {
            en: "{symptom}, whose error names the driver {driver}, which this plugin's name suggests (inference: by name)",
            zh: "{symptom}，其错误消息指名了驱动 {driver}，与这个插件的名称相符（推断：依据名称）",
        },
        /// Evidence: the sandbox or node error names the CNI plugin.
        PluginNamed { symptom: ObjectRef, plugin: Text } = "cluster-component-failing.plugin-named" {
            en: "{symptom}, whose network error names {plugin} (evidence)",
            zh: "{symptom}，其网络错误消息指名了 {plugin}（证据）",
        },
        /// Inference: the symptom is on a node where the component's Pod is failing.
        SameNode { symptom: ObjectRef, node: String } = "cluster-component-failing.same-node" {
            en: "{symptom}, on node {node} where this component's Pod is failing (inference: same node; its error does not name the component)",
            zh: "{symptom}，位于该组件 Pod 出故障的节点 {node} 上（推断：同一节点；其错误消息没有指名该组件）",
        },
        /// Evidence: the Ingress names the class this ingress controller serves.
        ClassServed { symptom: ObjectRef, class: String } = "cluster-component-failing.class-served" {
            en: "{symptom}, whose class {class} is the one this controller serves (evidence)",
            zh: "{symptom}，它的类 {class} 正是该控制器负责的类（证据）",
        },
        /// Inference: the Ingress names no class; this failing controller would be the one to admit it.
        NoClassNamed { symptom: ObjectRef } = "cluster-component-failing.no-class-named" {
            en: "{symptom}, which names no class (inference: this is a failing ingress controller of the input, not shown to be the one meant to admit it)",
            zh: "{symptom}，它没有指定类（推断：这是输入中一个出故障的 Ingress 控制器，但不能证明它就是应当接纳该 Ingress 的那个）",
        },
        /// Evidence: the webhook's Service selects the component's failing Pod.
        ServiceSelects { service: ObjectRef } = "cluster-component-failing.service-selects" {
            en: "the calls to {service}, which selects this component's failing Pod (evidence)",
            zh: "对 {service} 的调用，它选中了该组件出故障的 Pod（证据）",
        },
        /// Inference: the Service is the one this component serves, by the table's names.
        ServiceNamed { service: ObjectRef } = "cluster-component-failing.service-named" {
            en: "the calls to {service}, the Service this component is known to serve (inference: by name; its selector was not pasted)",
            zh: "对 {service} 的调用，已知这是该组件提供的 Service（推断：依据名称；输入中没有它的选择器）",
        },
        /// A failed lookup of `name`; evidence when the server is the cluster DNS's or the name a cluster name.
        LookupFails { name: String, evidence: bool } = "cluster-component-failing.lookup-fails" {
            en: {
                let how = if *evidence.0 { "evidence: a cluster name, or the kube-dns address" } else { "inference: the resolver is not shown to be the cluster DNS" };
                format!("the failed lookup of {} ({how})", name.0)
            },
            zh: {
                let how = if *evidence.0 { "证据：集群内名称，或 kube-dns 的地址" } else { "推断：无法确认解析器就是集群 DNS" };
                format!("对 {} 的解析失败（{how}）", name.0)
            },
        },
        /// A connection to a Service's cluster IP failed: the address is the Service's (evidence),
        /// that it went through this kube-proxy is inferred (a log line does not say from which node).
        VipFails { address: String, service: ObjectRef, endpoints: Option<String> } = "cluster-component-failing.vip-fails" {
            en: {
                let behind = endpoints.0.as_ref().map_or_else(String::new, |e| format!(", which has endpoints ({e})"));
                format!("the failed connection to {}, the cluster IP of {service}{behind} (evidence: the address is that Service's virtual IP, which kube-proxy programs on every node; inference: that it was made from a node whose kube-proxy is failing, which the line does not say)", address.0)
            },
            zh: {
                let behind = endpoints.0.as_ref().map_or_else(String::new, |e| format!("，而它有端点（{e}）"));
                format!("对 {} 的连接失败，这是 {service} 的集群 IP{behind}（证据：该地址就是这个 Service 的虚拟 IP，由 kube-proxy 在每个节点上配置；推断：连接是从 kube-proxy 出故障的节点发起的，这一行没有说明）", address.0)
            },
        },
        /// The HPA or kubectl cannot read the metrics API; evidence when the message names it.
        MetricsFail { evidence: bool } = "cluster-component-failing.metrics-fail" {
            en: {
                if *evidence.0 { "metrics that cannot be read from the resource metrics API (evidence: the message names it)".to_string() } else { "metrics that cannot be read (inference: the message does not name the metrics API)".to_string() }
            },
            zh: {
                if *evidence.0 { "无法从资源指标 API 读取的指标（证据：消息指名了该 API）".to_string() } else { "无法读取的指标（推断：消息没有指名指标 API）".to_string() }
            },
        },
        WhyFails { component: Text } = "cluster-component-failing.why-fails" {
            en: "Why {component} fails: its own log says (kubectl logs --previous of each container), no status field does.",
            zh: "{component} 为什么出故障：要看它自己的日志（每个容器的 kubectl logs --previous），没有哪个状态字段记录了原因。",
        },
        InferenceOnly {} = "cluster-component-failing.inference-only" {
            en: "For a link marked inference, that the symptom really goes through this failing Pod: the error does not name the component.",
            zh: "对于标为推断的关联，症状是否确实经过这个出故障的 Pod：错误消息没有指名该组件。",
        },
        /// The drivers came from the table's row, not from the plugin's spec.
        DriverFromTable { component: Text, drivers: String } = "cluster-component-failing.driver-from-table" {
            en: "That this {component} registers {drivers}: that is the driver a plugin of this name registers; its Pod's spec (the registrar's --kubelet-registration-path) was not pasted.",
            zh: "这个 {component} 注册的是否是 {drivers}：这是这个名称的插件所注册的驱动，但输入中没有它的 Pod 规格（registrar 的 --kubelet-registration-path）。",
        },
        /// A controller's drivers came from the table's row: no spec field names them.
        ControllerDriverFromTable { component: Text, drivers: String } = "cluster-component-failing.controller-driver-from-table" {
            en: "That this {component} serves {drivers}: that is the driver a controller of this name serves; nothing pasted shows the name it reports (its provisioner's and attacher's events come From <driver>_<pod>_…).",
            zh: "这个 {component} 服务的是否是 {drivers}：这是这个名称的控制器所服务的驱动，但输入中没有任何内容显示它报告的驱动名（它的 provisioner 和 attacher 发出的事件，From 为 <driver>_<pod>_…）。",
        },
        DriverUnknown {} = "cluster-component-failing.driver-unknown" {
            en: "Which CSI driver this plugin registers: neither its name nor its pasted spec says.",
            zh: "这个插件注册的是哪个 CSI 驱动：它的名称和输入中的规格都没有说明。",
        },
        WhenBegan {} = "cluster-component-failing.when-began" {
            en: "Whether the symptoms began when the component failed: compare the events' times with its restarts.",
            zh: "症状是否在该组件出故障时开始：需要对比事件的时间和它的重启时间。",
        },
    }
}
